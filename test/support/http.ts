import request from 'supertest';
import { TestApp } from './test-app';

/** supertest bound to the app with a bearer key. */
export function api(app: TestApp, key?: string) {
  const agent = request(app.server);
  const auth = (r: request.Test) => (key ? r.set('Authorization', `Bearer ${key}`) : r);
  return {
    get: (path: string) => auth(agent.get(path)),
    post: (path: string) => auth(agent.post(path)),
    patch: (path: string) => auth(agent.patch(path)),
    delete: (path: string) => auth(agent.delete(path)),
    put: (path: string) => auth(agent.put(path)),
  };
}

/** Asserts the error envelope of API-CONTRACT.md section 3. */
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
