import request from 'supertest';
import { OperatorService } from '#platform/auth/operator.service';
import { api, expectError } from '../support/http';
import { listInEverySeededScope } from '../support/list-all';
import { startTestApp, TestApp } from '../support/test-app';

describe('authentication failures', () => {
  let app: TestApp;
  let keys: Record<string, string>;

  beforeAll(async () => {
    app = await startTestApp();
    keys = app.seed.entities.primary.keys;
  });
  afterAll(() => app.close());

  const invalidKey = { type: 'authentication_error' };

  it('accepts a valid live key and stamps rate-limit headers', async () => {
    const res = await api(app, keys.live).get('/v1/tags').expect(200);
    expect(res.body.object).toBe('list');
    expect(Number(res.headers['ratelimit-limit'])).toBeGreaterThan(0);
  });

  it('refuses a missing Authorization header with invalid_api_key', async () => {
    const res = await request(app.server).get('/v1/tags');
    expectError(res, 401, 'invalid_api_key', invalidKey);
    expect(res.body.hint).toMatch(/Bearer/);
  });

  it('refuses another scheme than Bearer', async () => {
    expectError(
      await request(app.server).get('/v1/tags').set('Authorization', `Basic ${keys.live}`),
      401,
      'invalid_api_key',
      invalidKey,
    );
    expectError(
      await request(app.server).get('/v1/tags').set('Authorization', `Token ${keys.live}`),
      401,
      'invalid_api_key',
    );
    expectError(
      await request(app.server).get('/v1/tags').set('Authorization', keys.live),
      401,
      'invalid_api_key',
    );
    expectError(
      await request(app.server).get('/v1/tags').set('Authorization', 'Bearer'),
      401,
      'invalid_api_key',
    );
    expectError(
      await request(app.server).get('/v1/tags').set('Authorization', 'Bearer '),
      401,
      'invalid_api_key',
    );
  });

  it('takes the key from the Authorization header only, never from the query or body', async () => {
    expectError(await request(app.server).get(`/v1/tags?access_token=${keys.live}`), 401, 'invalid_api_key');
    expectError(
      await request(app.server).post('/v1/tags').send({ name: 'x', access_token: keys.live }),
      401,
      'invalid_api_key',
    );
    expect((await listInEverySeededScope(app, '/v1/tags')).filter((t) => t.name === 'x')).toEqual([]);
  });

  it('refuses malformed keys', async () => {
    for (const key of [
      'nonsense',
      'key_live_ent_qa1_short',
      'key_prod_ent_qa1_' + 'a'.repeat(40),
      'key_live_qa1_' + 'a'.repeat(40),
      'key_live_ent_QA1_' + 'a'.repeat(40),
      keys.live + '!',
      keys.live.replace('key_live_', 'KEY_LIVE_'),
    ]) {
      const res = await api(app, key).get('/v1/tags');
      expectError(res, 401, 'invalid_api_key', invalidKey);
      expect(res.body.hint).toMatch(/malformed/);
    }
  });

  it('refuses an unknown well-formed key', async () => {
    const res = await api(app, 'key_live_ent_qa1_' + 'Z'.repeat(40)).get('/v1/tags');
    expectError(res, 401, 'invalid_api_key', {
      hint: expect.stringMatching(/^No such API key: key_live_ent_qa1_\.\.\.\w{4}\.$/),
    });
    // A real key with its entity code or mode changed is no key at all.
    expectError(
      await api(app, keys.live.replace('_ent_qa1_', '_ent_qa2_')).get('/v1/tags'),
      401,
      'invalid_api_key',
    );
    expectError(
      await api(app, keys.live.replace('key_live_', 'key_test_')).get('/v1/tags'),
      401,
      'invalid_api_key',
    );
    // Case matters in the random part: flip the last letter of it (a digit has no case).
    const prefix = 'key_live_ent_qa1_';
    expect(keys.live.startsWith(prefix)).toBe(true);
    const at = keys.live.search(/[a-zA-Z](?=[^a-zA-Z]*$)/);
    expect(at).toBeGreaterThanOrEqual(prefix.length);
    const letter = keys.live[at];
    const flipped =
      keys.live.slice(0, at) +
      (letter === letter.toUpperCase() ? letter.toLowerCase() : letter.toUpperCase()) +
      keys.live.slice(at + 1);
    expect(flipped.toLowerCase()).toBe(keys.live.toLowerCase());
    expect(flipped).not.toBe(keys.live);
    expectError(await api(app, flipped).get('/v1/tags'), 401, 'invalid_api_key');
  });

  it('refuses an expired key with invalid_api_key', async () => {
    const res = await api(app, keys.expired).get('/v1/tags');
    expectError(res, 401, 'invalid_api_key', invalidKey);
    expect(res.body.hint).toMatch(/expired/);
  });

  it('refuses a revoked key with api_key_revoked', async () => {
    expectError(await api(app, keys.revoked).get('/v1/tags'), 401, 'api_key_revoked', invalidKey);
  });

  it('sends no rate-limit headers and does not answer 405 before authentication', async () => {
    const res = await request(app.server).get('/v1/tags');
    expect(res.headers['ratelimit-limit']).toBeUndefined();
  });

  it('refuses an address outside the allowlist with ip_not_allowed and a hint', async () => {
    const res = await api(app, keys.ip_restricted).get('/v1/tags');
    expectError(res, 403, 'ip_not_allowed', { type: 'permission_error' });
    expect(res.body.hint).toMatch(/allowlist/);
    expect(res.body.hint).toContain('127.0.0.1');
  });

  it('ignores X-Forwarded-For when TRUST_PROXY is unset', async () => {
    expect(app.config.TRUST_PROXY).toBeUndefined();
    const res = await api(app, keys.ip_restricted).get('/v1/tags').set('X-Forwarded-For', '203.0.113.7');
    expectError(res, 403, 'ip_not_allowed');
  });

  it('refuses invalid allowlist entries with parameter_invalid naming the entry', async () => {
    const live = api(app, keys.live);
    const path = `/v1/entities/${app.seed.entities.primary.id}/api_keys`;
    for (const entry of [
      'not-an-ip',
      '10.0.0.0/33',
      '2001:db8::/129',
      '10.0.0.1/8/1',
      '10.0.0.0/',
      '10.0.0.0/abc',
      '300.1.1.1',
      '',
    ]) {
      const res = await live.post(path).send({ name: 'bad', scopes: ['tags:read'], ip_allowlist: [entry] });
      expectError(res, 400, 'parameter_invalid', { param: 'ip_allowlist[0]', type: 'validation_error' });
    }
    const second = await live
      .post(path)
      .send({ name: 'bad', scopes: ['tags:read'], ip_allowlist: ['10.0.0.1', 'nope'] });
    expectError(second, 400, 'parameter_invalid', { param: 'ip_allowlist[1]' });
    expectError(
      await live.post(path).send({ name: 'bad', scopes: ['tags:read'], ip_allowlist: [42] }),
      400,
      'parameter_invalid',
      {
        param: 'ip_allowlist[0]',
      },
    );
    const stored = [
      ...(await app.get(OperatorService).listKeys(app.seed.entities.primary.code)),
      ...(await app.get(OperatorService).listKeys(app.seed.entities.secondary.code)),
    ];
    expect(stored.filter((k) => k.name === 'bad')).toEqual([]);
  });

  describe('with TRUST_PROXY', () => {
    let proxied: TestApp;

    beforeAll(async () => {
      proxied = await startTestApp({ TRUST_PROXY: 'true' });
    });
    afterAll(() => proxied.close());

    it('checks the forwarded client address against the allowlist', async () => {
      const key = proxied.seed.entities.primary.keys.ip_restricted;
      const ok = await api(proxied, key).get('/v1/tags').set('X-Forwarded-For', '203.0.113.7').expect(200);
      expect(ok.body.object).toBe('list');
      const refused = await api(proxied, key).get('/v1/tags').set('X-Forwarded-For', '198.51.100.1');
      expectError(refused, 403, 'ip_not_allowed');
      expect(refused.body.hint).toContain('198.51.100.1');
      // Without the header the proxy itself (127.0.0.1) is the client.
      expectError(await api(proxied, key).get('/v1/tags'), 403, 'ip_not_allowed');
      // An IPv4-mapped IPv6 form of an allowed address is the same address.
      await api(proxied, key).get('/v1/tags').set('X-Forwarded-For', '::ffff:203.0.113.200').expect(200);
    });

    it('matches IPv6 CIDR ranges', async () => {
      const primary = proxied.seed.entities.primary;
      const created = await api(proxied, primary.keys.live)
        .post(`/v1/entities/${primary.id}/api_keys`)
        .send({ name: 'IPv6 only', scopes: ['tags:read'], ip_allowlist: ['2001:db8::/32'] })
        .expect(201);
      expect(created.body.ip_allowlist).toEqual(['2001:db8::/32']);
      const key = created.body.secret as string;
      await api(proxied, key).get('/v1/tags').set('X-Forwarded-For', '2001:db8::5').expect(200);
      await api(proxied, key).get('/v1/tags').set('X-Forwarded-For', '2001:db8:ffff:ffff::1').expect(200);
      expectError(
        await api(proxied, key).get('/v1/tags').set('X-Forwarded-For', '2001:db9::1'),
        403,
        'ip_not_allowed',
      );
      expectError(
        await api(proxied, key).get('/v1/tags').set('X-Forwarded-For', '203.0.113.7'),
        403,
        'ip_not_allowed',
      );
    });
  });
});

describe('sandbox listener', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  const sandbox = (key: string) => request(app.sandbox).get('/v1/tags').set('Authorization', `Bearer ${key}`);

  it('accepts test keys and serves test-mode data', async () => {
    const keys = app.seed.entities.primary.keys;
    const created = await api(app, keys.test).post('/v1/tags').send({ name: 'sandbox tag' }).expect(201);
    const res = await sandbox(keys.test).expect(200);
    expect(res.body.data.map((t: { id: string }) => t.id)).toContain(created.body.id);
    expect(res.body.data.every((t: { livemode: boolean }) => t.livemode === false)).toBe(true);
  });

  it('refuses live keys with invalid_api_key and a hint about test keys', async () => {
    for (const key of [app.seed.entities.primary.keys.live, app.seed.entities.secondary.keys.live]) {
      const res = await sandbox(key);
      expectError(res, 401, 'invalid_api_key', { type: 'authentication_error' });
      expect(res.body.hint).toMatch(/test keys/);
    }
  });

  it('still refuses missing and revoked keys', async () => {
    expectError(await request(app.sandbox).get('/v1/tags'), 401, 'invalid_api_key');
    expectError(await sandbox(app.seed.entities.primary.keys.revoked), 401, 'api_key_revoked');
  });
});
