import request from 'supertest';
import { READ_SCOPES, SCOPES } from '#platform/auth/scopes';
import { TagRepository } from '#contexts/catalog';
import { ApiKeyService } from '#platform/auth/api-key.service';
import { OperatorService } from '#platform/auth/operator.service';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { QaSeedDocument, QaSeedService } from '#platform/seed/qa-seed.service';
import { RequestContext } from '#platform/tenancy/request-context';
import { api, expectError } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const PRIMARY_KEYS = [
  'expired',
  'ip_restricted',
  'live',
  'migration',
  'orders_only',
  'read_only',
  'revoked',
  'test',
];

describe('QA seed (docs/reference/qa-seed.md)', () => {
  let app: TestApp;
  let seed: QaSeedDocument;

  beforeAll(async () => {
    app = await startTestApp();
    seed = app.seed;
  });
  afterAll(() => app.close());

  /** The primary entity's keys of this name (both modes), as the operator commands list them. */
  const keyRow = async (name: string) =>
    (await app.get(OperatorService).listKeys(seed.entities.primary.code)).filter((k) => k.name === name);
  /**
   * What is left in storage of an entity the reseed removed, in both modes, through the tag
   * repository and the API key service acting as that entity (its keys answer 401 now).
   */
  const leftOf = async (entityId: string) => {
    let tags = 0;
    let keys = 0;
    for (const livemode of [true, false]) {
      await RequestContext.runAsSystem({ entityId, livemode }, async () => {
        tags += await app.get(TagRepository).scopedQuery('t').getCount();
        keys += (await app.get(ApiKeyService).list({ limit: 100 } as ListQueryDto, '/v1/api_keys')).data
          .length;
      });
    }
    return { tags, keys };
  };

  it('has the documented shape', () => {
    expect(Object.keys(seed).sort()).toEqual(['base_url', 'entities', 'fixtures']);
    expect(seed.base_url).toBe(app.config.baseUrl);
    expect(seed.base_url).toMatch(/^https?:\/\/.+\/v1$/);
    expect(Object.keys(seed.entities).sort()).toEqual(['primary', 'secondary']);
    const { primary, secondary } = seed.entities;
    expect(primary).toMatchObject({ code: 'qa1' });
    expect(primary.id).toMatch(UUID);
    expect(Object.keys(primary.keys).sort()).toEqual(PRIMARY_KEYS);
    expect(secondary).toMatchObject({ code: 'qa2' });
    expect(secondary.id).toMatch(UUID);
    expect(secondary.id).not.toBe(primary.id);
    expect(Object.keys(secondary.keys)).toEqual(['live']);
    expect(typeof seed.fixtures).toBe('object');
    expect(seed.fixtures).not.toBeNull();
    expect(Array.isArray(seed.fixtures)).toBe(false);

    const all = [...Object.values(primary.keys), secondary.keys.live];
    expect(new Set(all).size).toBe(all.length);
    for (const [name, key] of Object.entries(primary.keys)) {
      const mode = name === 'test' ? 'test' : 'live';
      expect(key).toMatch(new RegExp(`^key_${mode}_ent_qa1_[A-Za-z0-9]{32,}$`));
    }
    expect(secondary.keys.live).toMatch(/^key_live_ent_qa2_[A-Za-z0-9]{32,}$/);
  });

  it('gives each key the documented behaviour', async () => {
    const keys = seed.entities.primary.keys;
    const tags = (key: string) => api(app, key).get('/v1/tags');

    const live = await api(app, keys.live).post('/v1/tags').send({ name: 'seed live' }).expect(201);
    expect(live.body.livemode).toBe(true);
    const test = await api(app, keys.test).post('/v1/tags').send({ name: 'seed test' }).expect(201);
    expect(test.body.livemode).toBe(false);
    await request(app.sandbox).get('/v1/tags').set('Authorization', `Bearer ${keys.test}`).expect(200);

    await tags(keys.read_only).expect(200);
    expectError(
      await api(app, keys.read_only).post('/v1/tags').send({ name: 'x' }),
      403,
      'insufficient_scope',
      { required: 'tags:write' },
    );
    const [readOnly] = await keyRow('QA read only');
    expect([...readOnly.scopes].sort()).toEqual([...READ_SCOPES].sort());
    expect(readOnly.scopes.length).toBeGreaterThan(10);
    expect(readOnly.scopes.every((s: string) => s.endsWith(':read'))).toBe(true);
    expect(readOnly.scopes.some((s: string) => s.endsWith(':write') || s === '*')).toBe(false);
    expect(SCOPES.filter((s) => s.endsWith(':read')).every((s) => readOnly.scopes.includes(s))).toBe(true);

    expectError(await tags(keys.orders_only), 403, 'insufficient_scope', { required: 'tags:read' });
    expect((await keyRow('QA orders only'))[0].scopes.sort()).toEqual(['orders:read', 'orders:write']);

    expectError(await tags(keys.revoked), 401, 'api_key_revoked', { type: 'authentication_error' });
    expectError(await tags(keys.expired), 401, 'invalid_api_key', { type: 'authentication_error' });
    expect(Date.parse((await keyRow('QA expired'))[0].expires_at!)).toBeLessThan(Date.now());
    expectError(await tags(keys.ip_restricted), 403, 'ip_not_allowed', { type: 'permission_error' });
    expect((await keyRow('QA IP restricted'))[0].ip_allowlist).toEqual(['203.0.113.0/24']);

    await tags(keys.migration).expect(200);
    await api(app, keys.migration).post('/v1/tags').send({ name: 'seed migration' }).expect(201);
    const [migration] = await keyRow('QA migration');
    expect(migration.scopes).toEqual(expect.arrayContaining(['migrations:read', 'migrations:write']));
    expect([...migration.scopes].sort()).toEqual([...SCOPES].sort());

    const secondary = api(app, seed.entities.secondary.keys.live);
    const list = await secondary.get('/v1/tags?limit=100').expect(200);
    expect(list.body.data.map((t: { id: string }) => t.id)).not.toContain(live.body.id);
    expectError(await secondary.get(`/v1/tags/${live.body.id}`), 404, 'not_found');
  });

  it('recreates everything with new ids and keys when run again, and the old keys stop working', async () => {
    const before = seed;
    const oldTag = (
      await api(app, before.entities.primary.keys.live)
        .post('/v1/tags')
        .send({ name: 'before reseed' })
        .expect(201)
    ).body;
    const after = await app.get(QaSeedService).run();
    expect(Object.keys(after.entities.primary.keys).sort()).toEqual(PRIMARY_KEYS);
    expect(after.entities.primary.code).toBe('qa1');
    expect(after.entities.secondary.code).toBe('qa2');
    expect(after.entities.primary.id).not.toBe(before.entities.primary.id);
    expect(after.entities.secondary.id).not.toBe(before.entities.secondary.id);
    for (const name of PRIMARY_KEYS)
      expect(after.entities.primary.keys[name]).not.toBe(before.entities.primary.keys[name]);

    for (const key of [
      before.entities.primary.keys.live,
      before.entities.primary.keys.test,
      before.entities.secondary.keys.live,
    ]) {
      const res = await api(app, key).get('/v1/tags');
      expect(res.status).toBe(401);
      expect(res.body.type).toBe('authentication_error');
    }
    const entities = (await app.get(OperatorService).listEntities()).filter((e) =>
      ['qa1', 'qa2'].includes(e.code),
    );
    expect(entities.map((e) => [e.code, e.id]).sort()).toEqual([
      ['qa1', after.entities.primary.id],
      ['qa2', after.entities.secondary.id],
    ]);
    expect(await leftOf(before.entities.primary.id)).toEqual({ tags: 0, keys: 0 });
    expect(await leftOf(before.entities.secondary.id)).toEqual({ tags: 0, keys: 0 });
    expectError(
      await api(app, after.entities.primary.keys.live).get(`/v1/tags/${oldTag.id}`),
      404,
      'not_found',
    );

    const fresh = api(app, after.entities.primary.keys.live);
    expect(
      (await fresh.get('/v1/tags?limit=100').expect(200)).body.data.map((t: { id: string }) => t.id),
    ).not.toContain(oldTag.id);
    await fresh.post('/v1/tags').send({ name: 'after reseed' }).expect(201);
    seed = after;
  });
});
