import request from 'supertest';
import { validatorFor } from './openapi-validator';
import { TestApp } from './test-app';

/**
 * Checks every response against the app's OpenAPI description (operation, status, documented
 * headers, body schema with no undocumented field); a mismatch fails the request's test with a
 * message naming the operation, the status and the place in the body.
 */
export function checkedAgainstOpenApi(app: Pick<TestApp, 'openapi'>, test: request.Test): request.Test {
  const validator = validatorFor(app.openapi);
  return test.expect((res: request.Response) => {
    const sent = (res as unknown as { req?: { method?: string; path?: string } }).req;
    validator.assert(sent?.method ?? test.method, sent?.path ?? test.url, res);
  });
}

/** supertest bound to the app with a bearer key; every response is checked against the description. */
export function api(app: TestApp, key?: string) {
  const agent = request(app.server);
  const auth = (r: request.Test) =>
    checkedAgainstOpenApi(app, key ? r.set('Authorization', `Bearer ${key}`) : r);
  return {
    get: (path: string) => auth(agent.get(path)),
    post: (path: string) => auth(agent.post(path)),
    patch: (path: string) => auth(agent.patch(path)),
    delete: (path: string) => auth(agent.delete(path)),
    put: (path: string) => auth(agent.put(path)),
  };
}

/** Asserts the flat error envelope (docs/errors.md). */
export function expectError(
  res: request.Response,
  status: number,
  code: string,
  extra: Record<string, unknown> = {},
) {
  expect({ status: res.status, code: res.body?.code }).toEqual({ status, code });
  expect(res.body).toMatchObject({ error: code, code, ...extra });
  expect(typeof res.body.type).toBe('string');
  expect(res.body.request_id).toBe(res.headers['request-id']);
  // RFC 6750: every 401 names the Bearer scheme.
  if (status === 401) expect(res.headers['www-authenticate']).toMatch(/^Bearer realm="api"/);
}
