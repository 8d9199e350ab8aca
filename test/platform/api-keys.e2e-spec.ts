import { createHash } from 'node:crypto';
import { OperatorService } from '#platform/auth/operator.service';
import { storedApiKeyRows } from '../support/database';
import { api, expectError } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';

const SECRET_PATTERN = /^key_live_ent_qa1_[0-9A-Za-z]{46}$/;
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

describe('API key routes', () => {
  let app: TestApp;
  let keys: Record<string, string>;
  let path: string;
  let live: ReturnType<typeof api>;

  beforeAll(async () => {
    app = await startTestApp();
    keys = app.seed.entities.primary.keys;
    path = `/v1/entities/${app.seed.entities.primary.id}/api_keys`;
    live = api(app, keys.live);
  });
  afterAll(() => app.close());

  /** Every key of both seeded entities, both modes, as the operator commands list them. */
  const seededKeys = async () => [
    ...(await app.get(OperatorService).listKeys(app.seed.entities.primary.code)),
    ...(await app.get(OperatorService).listKeys(app.seed.entities.secondary.code)),
  ];

  const create = async (body: Record<string, unknown>) => (await live.post(path).send(body).expect(201)).body;

  it('creates a key and shows its secret once', async () => {
    const expiresAt = new Date(Date.now() + 7 * 24 * 3600 * 1000).toISOString();
    const created = await create({
      name: 'ERP sync',
      mode: 'live',
      scopes: ['tags:read', 'orders:read'],
      ip_allowlist: ['127.0.0.1', '10.0.0.0/8'],
      rate_limit_per_minute: 120,
      expires_at: expiresAt,
    });
    expect(created).toMatchObject({
      object: 'api_key',
      entity_id: app.seed.entities.primary.id,
      name: 'ERP sync',
      mode: 'live',
      livemode: true,
      status: 'active',
      scopes: ['tags:read', 'orders:read'],
      ip_allowlist: ['127.0.0.1', '10.0.0.0/8'],
      rate_limit_per_minute: 120,
      expires_at: expiresAt,
      revoked_at: null,
      rotated_from_id: null,
      replaced_by_id: null,
    });
    expect(created.secret).toMatch(SECRET_PATTERN);
    expect(created.redacted_key).toBe(`key_live_ent_qa1_...${created.secret.slice(-4)}`);

    // The secret works at once.
    const tags = await api(app, created.secret).get('/v1/tags').expect(200);
    expect(tags.headers['ratelimit-limit']).toBe('120');

    const got = await live.get(`${path}/${created.id}`).expect(200);
    expect(got.body.secret).toBeUndefined();
    const { secret, ...withoutSecret } = created;
    expect(got.body).toEqual(withoutSecret);
    expect(JSON.stringify(got.body)).not.toContain(secret);

    const list = await live.get(`${path}?limit=100`).expect(200);
    expect(JSON.stringify(list.body)).not.toContain(secret);
    for (const key of list.body.data) expect(key).not.toHaveProperty('secret');
  });

  it('stores only the SHA-256 of the secret', async () => {
    const created = await create({ name: 'hashed', scopes: ['tags:read'] });
    const rows = await storedApiKeyRows(app, created.id);
    expect(rows).toHaveLength(1);
    expect(rows[0].key_hash).toBe(sha256(created.secret));
    const stored = JSON.stringify(rows[0]);
    expect(stored).not.toContain(created.secret);
    // Not even the random part is stored beyond the last four characters.
    expect(stored).not.toContain(created.secret.slice('key_live_ent_qa1_'.length, -4));
    // The seed keys too.
    const dump = JSON.stringify(await storedApiKeyRows(app));
    for (const key of Object.values(keys)) expect(dump).not.toContain(key);
  });

  it('lists keys as an object list, newest first, and pages', async () => {
    const a = await create({ name: 'list a', scopes: ['tags:read'] });
    const b = await create({ name: 'list b', scopes: ['tags:read'] });
    const list = await live.get(`${path}?limit=100`).expect(200);
    expect(list.body).toMatchObject({ object: 'list', has_more: false, url: path });
    const ids = list.body.data.map((k: { id: string }) => k.id);
    expect(ids.slice(0, 2)).toEqual([b.id, a.id]);
    const created = list.body.data.map((k: { created_at: string }) => k.created_at);
    expect([...created].sort().reverse()).toEqual(created);
    expect(
      list.body.data.every(
        (k: { object: string; livemode: boolean }) => k.object === 'api_key' && k.livemode,
      ),
    ).toBe(true);
    // The seed's live keys are there; the test key is not.
    const names = list.body.data.map((k: { name: string }) => k.name);
    expect(names).toEqual(expect.arrayContaining(['QA live', 'QA revoked', 'QA expired']));
    expect(names).not.toContain('QA test');

    const page = await live.get(`${path}?limit=1`).expect(200);
    expect(page.body.data.map((k: { id: string }) => k.id)).toEqual([b.id]);
    expect(page.body.has_more).toBe(true);
    const next = await live.get(`${path}?limit=1&starting_after=${b.id}`).expect(200);
    expect(next.body.data.map((k: { id: string }) => k.id)).toEqual([a.id]);

    const statuses = Object.fromEntries(
      list.body.data.map((k: { name: string; status: string }) => [k.name, k.status]),
    );
    expect(statuses).toMatchObject({ 'QA live': 'active', 'QA revoked': 'revoked', 'QA expired': 'expired' });
  });

  it('retrieves a key and answers 404 for an unknown id', async () => {
    const created = await create({ name: 'retrieve me', scopes: ['tags:read'] });
    expect((await live.get(`${path}/${created.id}`).expect(200)).body.name).toBe('retrieve me');
    expectError(await live.get(`${path}/0190f5d2-7a00-7000-8000-000000000000`), 404, 'not_found');
    expectError(await live.get(`${path}/not-a-uuid`), 404, 'not_found');
  });

  it('rotates a key: same settings, the old key revoked at once', async () => {
    const old = await create({
      name: 'to rotate',
      scopes: ['tags:read', 'tags:write'],
      ip_allowlist: ['127.0.0.1'],
      rate_limit_per_minute: 50,
    });
    await api(app, old.secret).get('/v1/tags').expect(200);

    const rotated = await live.post(`${path}/${old.id}/rotate`).expect(200);
    const fresh = rotated.body;
    expect(fresh.id).not.toBe(old.id);
    expect(fresh.secret).toMatch(SECRET_PATTERN);
    expect(fresh.secret).not.toBe(old.secret);
    expect(fresh).toMatchObject({
      object: 'api_key',
      name: 'to rotate',
      mode: 'live',
      livemode: true,
      status: 'active',
      scopes: ['tags:read', 'tags:write'],
      ip_allowlist: ['127.0.0.1'],
      rate_limit_per_minute: 50,
      expires_at: null,
      rotated_from_id: old.id,
      revoked_at: null,
    });

    expectError(await api(app, old.secret).get('/v1/tags'), 401, 'api_key_revoked');
    const tags = await api(app, fresh.secret).get('/v1/tags').expect(200);
    expect(tags.headers['ratelimit-limit']).toBe('50');

    const oldNow = (await live.get(`${path}/${old.id}`).expect(200)).body;
    expect(oldNow).toMatchObject({ status: 'revoked', replaced_by_id: fresh.id });
    expect(oldNow.revoked_at).not.toBeNull();
    const freshNow = (await live.get(`${path}/${fresh.id}`).expect(200)).body;
    expect(freshNow.secret).toBeUndefined();

    expectError(await live.post(`${path}/${old.id}/rotate`), 409, 'invalid_state', { type: 'conflict' });
  });

  it('rotates a test key into a test key', async () => {
    const test = api(app, keys.test);
    const old = (
      await test
        .post(path)
        .send({ name: 'test rotate', mode: 'test', scopes: ['tags:read'] })
        .expect(201)
    ).body;
    expect(old.secret).toMatch(/^key_test_ent_qa1_[0-9A-Za-z]{46}$/);
    const fresh = (await test.post(`${path}/${old.id}/rotate`).expect(200)).body;
    expect(fresh).toMatchObject({
      mode: 'test',
      livemode: false,
      name: 'test rotate',
      scopes: ['tags:read'],
    });
    expect(fresh.secret).toMatch(/^key_test_ent_qa1_[0-9A-Za-z]{46}$/);
    await api(app, fresh.secret).get('/v1/tags').expect(200);
    expectError(await api(app, old.secret).get('/v1/tags'), 401, 'api_key_revoked');
  });

  it('revokes a key permanently and immediately', async () => {
    const key = await create({ name: 'to revoke', scopes: ['tags:read'] });
    await api(app, key.secret).get('/v1/tags').expect(200);
    const revoked = await live.post(`${path}/${key.id}/revoke`).expect(200);
    expect(revoked.body).toMatchObject({ id: key.id, status: 'revoked', object: 'api_key' });
    expect(revoked.body.revoked_at).not.toBeNull();
    expect(revoked.body.secret).toBeUndefined();
    expectError(await api(app, key.secret).get('/v1/tags'), 401, 'api_key_revoked');
    expectError(await live.post(`${path}/${key.id}/rotate`), 409, 'invalid_state');
    // Revoking again changes nothing.
    const again = await live.post(`${path}/${key.id}/revoke`).expect(200);
    expect(again.body.revoked_at).toBe(revoked.body.revoked_at);
    expectError(await api(app, key.secret).get('/v1/tags'), 401, 'api_key_revoked');
  });

  it('lets a key revoke itself', async () => {
    const key = await create({ name: 'self revoke', scopes: ['api_keys:write', 'api_keys:read'] });
    await api(app, key.secret).post(`${path}/${key.id}/revoke`).expect(200);
    expectError(await api(app, key.secret).get(`${path}/${key.id}`), 401, 'api_key_revoked');
  });

  it('cannot grant scopes the calling key lacks', async () => {
    const limited = await create({ name: 'limited', scopes: ['api_keys:write', 'tags:read'] });
    const asLimited = api(app, limited.secret);
    const ok = await asLimited
      .post(path)
      .send({ name: 'subset', scopes: ['tags:read'] })
      .expect(201);
    expect(ok.body.scopes).toEqual(['tags:read']);
    expectError(
      await asLimited.post(path).send({ name: 'more', scopes: ['tags:read', 'orders:write'] }),
      403,
      'insufficient_scope',
      {
        required: 'orders:write',
      },
    );
    expectError(await asLimited.post(path).send({ name: 'all', scopes: ['*'] }), 403, 'insufficient_scope', {
      required: '*',
    });
    const readOnlyDerived = await api(app, keys.read_only);
    expectError(
      await readOnlyDerived.post(path).send({ name: 'x', scopes: ['tags:read'] }),
      403,
      'insufficient_scope',
      {
        required: 'api_keys:write',
      },
    );
    expect((await seededKeys()).filter((k) => ['more', 'all'].includes(k.name))).toEqual([]);
  });

  it('validates the create body', async () => {
    expectError(
      await live.post(path).send({ name: 'x', scopes: ['tags:read', 'nope:read'] }),
      400,
      'parameter_invalid',
      {
        param: 'scopes[1]',
        type: 'validation_error',
      },
    );
    expectError(await live.post(path).send({ name: 'x', scopes: ['tags:readx'] }), 400, 'parameter_invalid', {
      param: 'scopes[0]',
    });
    expectError(
      await live.post(path).send({ name: 'x', scopes: ['tags:read', 7] }),
      400,
      'parameter_invalid',
      { param: 'scopes[1]' },
    );
    expectError(
      await live.post(path).send({ name: 'x', mode: 'test', scopes: ['tags:read'] }),
      400,
      'parameter_invalid',
      {
        param: 'mode',
      },
    );
    expectError(
      await api(app, keys.test)
        .post(path)
        .send({ name: 'x', mode: 'live', scopes: ['tags:read'] }),
      400,
      'parameter_invalid',
      {
        param: 'mode',
      },
    );
    expectError(
      await live.post(path).send({ name: 'x', mode: 'prod', scopes: ['tags:read'] }),
      400,
      'parameter_invalid',
      {
        param: 'mode',
      },
    );
    expectError(await live.post(path).send({ scopes: ['tags:read'] }), 400, 'parameter_missing', {
      param: 'name',
    });
    expectError(await live.post(path).send({ name: 'x' }), 400, 'parameter_missing', { param: 'scopes' });
    expectError(
      await live.post(path).send({ name: 'x', scopes: ['tags:read'], rate_limit_per_minute: 0 }),
      400,
      'parameter_invalid',
      {
        param: 'rate_limit_per_minute',
      },
    );
    expectError(
      await live.post(path).send({ name: 'x', scopes: ['tags:read'], expires_at: '2001-01-01T00:00:00Z' }),
      400,
      'parameter_invalid',
      { param: 'expires_at' },
    );
    expectError(
      await live.post(path).send({ name: 'x', scopes: ['tags:read'], secret: 'mine' }),
      400,
      'parameter_unknown',
      {
        param: 'secret',
      },
    );
    // A key created in the default mode takes the caller's.
    const testKey = (
      await api(app, keys.test)
        .post(path)
        .send({ name: 'default mode', scopes: ['tags:read'] })
        .expect(201)
    ).body;
    expect(testKey).toMatchObject({ mode: 'test', livemode: false });
  });

  describe('isolation', () => {
    it('keeps live and test key records apart', async () => {
      const test = api(app, keys.test);
      const liveKey = await create({ name: 'live record', scopes: ['tags:read'] });
      const testKey = (
        await test
          .post(path)
          .send({ name: 'test record', scopes: ['tags:read'] })
          .expect(201)
      ).body;
      expect(testKey.livemode).toBe(false);

      expectError(await test.get(`${path}/${liveKey.id}`), 404, 'not_found');
      expectError(await test.post(`${path}/${liveKey.id}/rotate`), 404, 'not_found');
      expectError(await test.post(`${path}/${liveKey.id}/revoke`), 404, 'not_found');
      expectError(await live.get(`${path}/${testKey.id}`), 404, 'not_found');
      expectError(await live.post(`${path}/${testKey.id}/rotate`), 404, 'not_found');
      expectError(await live.post(`${path}/${testKey.id}/revoke`), 404, 'not_found');
      // Nothing was revoked across modes.
      await api(app, liveKey.secret).get('/v1/tags').expect(200);
      await api(app, testKey.secret).get('/v1/tags').expect(200);

      const testList = await test.get(`${path}?limit=100`).expect(200);
      expect(testList.body.data.every((k: { livemode: boolean }) => k.livemode === false)).toBe(true);
      expect(testList.body.data.map((k: { id: string }) => k.id)).toContain(testKey.id);
      const liveList = await live.get(`${path}?limit=100`).expect(200);
      expect(liveList.body.data.map((k: { id: string }) => k.id)).not.toContain(testKey.id);
    });

    it("refuses another entity's key on this entity's path", async () => {
      const other = api(app, app.seed.entities.secondary.keys.live);
      const target = await create({ name: 'primary key', scopes: ['tags:read'] });
      for (const res of [
        await other.get(path),
        await other.post(path).send({ name: 'intruder', scopes: ['tags:read'] }),
        await other.get(`${path}/${target.id}`),
        await other.post(`${path}/${target.id}/rotate`),
        await other.post(`${path}/${target.id}/revoke`),
      ]) {
        expectError(res, 403, 'entity_isolation_violation', { type: 'permission_error' });
      }
      await api(app, target.secret).get('/v1/tags').expect(200);
      expect((await seededKeys()).filter((k) => k.name === 'intruder')).toEqual([]);
      // Its own path works, and shows only its own keys.
      const own = await other.get(`/v1/entities/${app.seed.entities.secondary.id}/api_keys`).expect(200);
      expect(
        own.body.data.every((k: { entity_id: string }) => k.entity_id === app.seed.entities.secondary.id),
      ).toBe(true);
      expectError(
        await other.get(`/v1/entities/${app.seed.entities.secondary.id}/api_keys/${target.id}`),
        404,
        'not_found',
      );
    });
  });
});
