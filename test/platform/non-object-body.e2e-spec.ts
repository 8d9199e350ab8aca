import { newId } from '#platform/persistence/ids';
import { api, expectError } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';

/** Every operation of the description that takes a JSON body, as method and concrete path. */
function jsonBodyOperations(app: TestApp): { method: 'post' | 'patch' | 'put'; path: string }[] {
  const operations: { method: 'post' | 'patch' | 'put'; path: string }[] = [];
  const paths = app.openapi.paths as Record<string, Record<string, { requestBody?: { content?: object } }>>;
  for (const [template, item] of Object.entries(paths)) {
    for (const method of ['post', 'patch', 'put'] as const) {
      const content = item[method]?.requestBody?.content as Record<string, unknown> | undefined;
      if (!content?.['application/json']) continue;
      const path = template
        .replace('{entity_id}', app.seed.entities.primary.id)
        .replace(/\{[^}]+\}/g, () => newId());
      operations.push({ method, path });
    }
  }
  return operations;
}

describe('a body that is not a JSON object', () => {
  let app: TestApp;
  let live: ReturnType<typeof api>;

  beforeAll(async () => {
    app = await startTestApp();
    live = api(app, app.seed.entities.primary.keys.live);
  });
  afterAll(() => app.close());

  const send = (method: 'post' | 'patch' | 'put', path: string, text: string) =>
    live[method](path).set('Content-Type', 'application/json').send(text);

  it('is 400 parameter_invalid for null, an array, a number, a string and a boolean, and writes nothing', async () => {
    const before = await app.db.query<{ n: number }>('SELECT count(*)::int AS n FROM orders');
    for (const text of ['null', '[]', '[{"supplier_id":"x"}]', '42', '"text"', 'true']) {
      const res = await send('post', '/v1/purchase-orders', text);
      expectError(res, 400, 'parameter_invalid', { param: 'body' });
      expect(res.body.hint).toMatch(/^The request body must be a JSON object, not /);
    }
    for (const path of ['/v1/accounting/settings', '/v1/inventory/settings', '/v1/fulfillment/settings']) {
      expectError(await send('patch', path, 'null'), 400, 'parameter_invalid', { param: 'body' });
    }
    const after = await app.db.query<{ n: number }>('SELECT count(*)::int AS n FROM orders');
    expect(after.rows[0].n).toBe(before.rows[0].n);
    // An empty object is still read as one (PATCH with nothing to change).
    await send('patch', '/v1/accounting/settings', '{}').expect(200);
  });

  it('is 400 parameter_invalid with a null body on every operation that takes a JSON body', async () => {
    const operations = jsonBodyOperations(app);
    expect(operations.length).toBeGreaterThan(100);
    const answers: string[] = [];
    for (const { method, path } of operations) {
      const res = await send(method, path, 'null');
      answers.push(
        `${method.toUpperCase()} ${path.replace(/[0-9a-f-]{36}/g, ':id')} ${res.status} ${res.body?.code}`,
      );
    }
    const refused = answers.filter((answer) => answer.endsWith(' 400 parameter_invalid'));
    expect(answers.filter((answer) => !refused.includes(answer))).toEqual([]);
  });
});
