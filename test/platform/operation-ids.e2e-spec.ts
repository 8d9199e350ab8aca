import request from 'supertest';
import { api, expectError } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';

type Operation = { operationId?: string; deprecated?: boolean; description?: string };
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** Every operationId is a stable name a generator can use as is; each route has one canonical form. */
describe('operationIds and path forms', () => {
  let app: TestApp;
  let doc: { info: { description: string }; paths: Record<string, Record<string, Operation>> };
  let operations: { path: string; method: string; operation: Operation }[];

  beforeAll(async () => {
    app = await startTestApp();
    doc = (await request(app.server).get('/v1/openapi.json').expect(200)).body;
    operations = Object.entries(doc.paths).flatMap(([path, item]) =>
      METHODS.filter((m) => item[m]).map((method) => ({ path, method, operation: item[method] })),
    );
  });
  afterAll(() => app.close());

  it('every operation has a unique operationId of letters, digits and underscores, with no index', () => {
    expect(operations.length).toBeGreaterThan(200);
    const ids = operations.map((o) => o.operation.operationId);
    const bad = ids.filter((id) => !id || !/^[A-Za-z][A-Za-z0-9_]*$/.test(id));
    expect(bad).toEqual([]);
    const seen = new Map<string, number>();
    for (const id of ids) seen.set(id!, (seen.get(id!) ?? 0) + 1);
    expect([...seen].filter(([, n]) => n > 1)).toEqual([]);
  });

  it('a route served in two forms: the flat one canonical, the entity-scoped one deprecated with _entityScoped', () => {
    const op = (path: string, method: string) => doc.paths[path]?.[method];
    const pairs: [string, string, string][] = [
      ['/v1/webhook_endpoints', 'post', 'WebhookEndpoints_create'],
      ['/v1/webhook_endpoints/{id}/rotate_secret', 'post', 'WebhookEndpoints_rotateSecret'],
      ['/v1/migration/cutover/freeze', 'post', 'Cutover_freeze'],
    ];
    for (const [flat, method, id] of pairs) {
      expect(op(flat, method)).toMatchObject({ operationId: id });
      expect(op(flat, method)!.deprecated).toBeFalsy();
      const scoped = op(`/v1/entities/{entity_id}${flat.slice(3)}`, method)!;
      expect(scoped).toMatchObject({ operationId: `${id}_entityScoped`, deprecated: true });
      expect(scoped.description).toContain(`Deprecated alias of \`${flat}\``);
    }
    // Routes that exist only entity-scoped are not deprecated, and have no flat form.
    for (const path of [
      '/v1/entities/{entity_id}/events',
      '/v1/entities/{entity_id}/event_types',
      '/v1/entities/{entity_id}/migration/imports',
      '/v1/entities/{entity_id}/api_keys',
    ]) {
      const ops = Object.values(doc.paths[path]);
      expect(ops.length).toBeGreaterThan(0);
      for (const o of ops)
        expect([o.deprecated, o.operationId]).toEqual([
          undefined,
          expect.not.stringMatching(/_entityScoped$/),
        ]);
      expect(doc.paths[`/v1${path.slice('/v1/entities/{entity_id}'.length)}`]).toBeUndefined();
    }
    // Every deprecated operation is one of the two alias kinds, and every alias is deprecated.
    for (const { operation } of operations) {
      const alias = /_(entityScoped|deprecated_alias)$/.test(operation.operationId!);
      expect([operation.operationId, !!operation.deprecated]).toEqual([operation.operationId, alias]);
    }
  });

  it('the introduction says which routes exist in which form, and it is true', async () => {
    const intro = doc.info.description;
    expect(intro).toContain('exist only entity-scoped');
    expect(intro).toContain('there is no `/v1/events`');
    const live = api(app, app.seed.entities.primary.keys.live);
    const entity = app.seed.entities.primary.id;
    expectError(await live.get('/v1/events'), 404, 'not_found');
    await live.get(`/v1/entities/${entity}/events`).expect(200);
    await live.get('/v1/webhook_endpoints').expect(200);
    await live.get(`/v1/entities/${entity}/webhook_endpoints`).expect(200);
  });
});
