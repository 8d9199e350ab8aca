import { randomBytes, randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { IdempotentResponseSecrets1765651000000 } from '../../db/migrations/1765651000000-idempotent-response-secrets';
import { reencryptSecrets } from '#platform/crypto/reencrypt';
import { DEVELOPMENT_SECRETS_KEY, SecretBox } from '#platform/crypto/secret-box';
import {
  insertLegacyIdempotentResponse,
  storedIdempotentResponse,
  tablesContaining,
} from '../support/database';
import { api, expectError } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';

/** What an idempotent store holds for these secrets' purpose (as the migration and the API seal them). */
const PURPOSE = 'idempotency_keys.response_secrets';

/**
 * Plaintext API keys and webhook signing secrets are shown once, in the response that issues
 * them. Sent with an Idempotency-Key, that response is stored for replays: the stored copy keeps
 * the secret only sealed with SECRETS_KEY, and a replay still answers the same secret.
 */
describe('secrets issued with an Idempotency-Key are never stored in clear', () => {
  let app: TestApp;
  let live: ReturnType<typeof api>;
  let keysPath: string;
  let prefixedHooks: string;
  /** Every plaintext secret this file was handed, for the final scan of the database. */
  const issued: string[] = [];
  /** A value stored in clear (an API key's redacted form), to show the scan finds what is there. */
  let storedInClear = '';

  beforeAll(async () => {
    app = await startTestApp();
    live = api(app, app.seed.entities.primary.keys.live);
    keysPath = `/v1/entities/${app.seed.entities.primary.id}/api_keys`;
    prefixedHooks = `/v1/entities/${app.seed.entities.primary.id}/webhook_endpoints`;
  });
  afterAll(() => app.close());

  const newKey = () => `secret-${randomUUID()}`;

  /**
   * Sends `send` twice with one Idempotency-Key: the second answer is the first, byte for byte,
   * marked as a replay. Returns the first body and the key.
   */
  async function sentTwice(
    send: () => ReturnType<typeof live.post>,
    status: number,
  ): Promise<{ body: Record<string, unknown>; key: string }> {
    const key = newKey();
    const first = await send().set('Idempotency-Key', key).expect(status);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const replay = await send().set('Idempotency-Key', key).expect(status);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.text).toBe(first.text);
    return { body: first.body as Record<string, unknown>, key };
  }

  /** The stored record of `key` holds the secret only sealed, and the sealed copy opens to it. */
  async function expectSealed(key: string, fields: Record<string, string>): Promise<void> {
    const stored = await storedIdempotentResponse(app, key);
    for (const value of Object.values(fields)) expect(stored.body).not.toContain(value);
    for (const field of Object.keys(fields)) expect(JSON.parse(stored.body)[field]).toBeNull();
    expect(stored.secrets).toMatch(/^enc:v1:dev:/);
    expect(JSON.parse(app.get(SecretBox).open(stored.secrets!, PURPOSE))).toEqual(fields);
  }

  it('replays an API key create and rotation with the same secret, stored sealed', async () => {
    const created = await sentTwice(
      () => live.post(keysPath).send({ name: 'idempotent secret', mode: 'live', scopes: ['tags:read'] }),
      201,
    );
    const secret = created.body.secret as string;
    expect(secret).toMatch(/^key_live_ent_qa1_[0-9A-Za-z]{46}$/);
    issued.push(secret);
    storedInClear = created.body.redacted_key as string;
    await expectSealed(created.key, { secret });
    // The replayed secret is the key that was issued: it authenticates.
    await api(app, secret).get('/v1/tags').expect(200);

    const rotated = await sentTwice(() => live.post(`${keysPath}/${created.body.id as string}/rotate`), 200);
    const next = rotated.body.secret as string;
    expect(next).toMatch(/^key_live_ent_qa1_[0-9A-Za-z]{46}$/);
    expect(next).not.toBe(secret);
    issued.push(next);
    await expectSealed(rotated.key, { secret: next });
    await api(app, next).get('/v1/tags').expect(200);
    expectError(await api(app, secret).get('/v1/tags'), 401, 'api_key_revoked');
  });

  it('replays webhook endpoint creates and secret rotations (both path forms) with the same secret, stored sealed', async () => {
    for (const [base, url] of [
      ['/v1/webhook_endpoints', 'http://127.0.0.1:9/idempotent-flat'],
      [prefixedHooks, 'http://127.0.0.1:9/idempotent-prefixed'],
    ]) {
      const created = await sentTwice(() => live.post(base).send({ url, enabled_events: ['*'] }), 201);
      const secret = created.body.secret as string;
      expect(secret).toMatch(/^whsec_[0-9a-f]{64}$/);
      issued.push(secret);
      await expectSealed(created.key, { secret });

      const rotated = await sentTwice(
        () => live.post(`${base}/${created.body.id as string}/rotate_secret`),
        200,
      );
      const next = rotated.body.signing_secret as string;
      expect(next).toMatch(/^whsec_[0-9a-f]{64}$/);
      expect(rotated.body.secret).toBe(next);
      expect(next).not.toBe(secret);
      issued.push(next);
      await expectSealed(rotated.key, { secret: next, signing_secret: next });
    }
  });

  it('seals the plaintext secrets of records stored before, in the migration', async () => {
    const secret = `key_live_ent_qa1_${randomBytes(23).toString('hex')}`;
    const key = newKey();
    await insertLegacyIdempotentResponse(
      app,
      key,
      JSON.stringify({ id: 'legacy', object: 'api_key', secret, name: 'before' }),
    );
    const runner = app.get(DataSource).createQueryRunner();
    try {
      await new IdempotentResponseSecrets1765651000000().up(runner);
    } finally {
      await runner.release();
    }
    const stored = await storedIdempotentResponse(app, key);
    expect(stored.body).toBe('{"id":"legacy","object":"api_key","secret":null,"name":"before"}');
    expect(JSON.parse(app.get(SecretBox).open(stored.secrets!, PURPOSE))).toEqual({ secret });
    issued.push(secret);
  });

  it('re-encrypts the sealed copies with a new key (secrets:reencrypt); a replay still answers the secret', async () => {
    const created = await sentTwice(
      () => live.post(keysPath).send({ name: 'reencrypted secret', mode: 'live', scopes: ['tags:read'] }),
      201,
    );
    const secret = created.body.secret as string;
    issued.push(secret);
    const ring = `k2:${randomBytes(32).toString('base64')},${DEVELOPMENT_SECRETS_KEY}`;
    expect(await reencryptSecrets(app.db, new SecretBox(ring))).toBeGreaterThan(0);
    const stored = await storedIdempotentResponse(app, created.key);
    expect(stored.secrets).toMatch(/^enc:v1:k2:/);
    // An instance given the new ring (step 3 keeps only k2) replays the same secret.
    const rotatedApp = await startTestApp({ SECRETS_KEY: ring.split(',')[0] }, { sameDatabaseAs: app });
    try {
      const replay = await api(rotatedApp, app.seed.entities.primary.keys.live)
        .post(keysPath)
        .set('Idempotency-Key', created.key)
        .send({ name: 'reencrypted secret', mode: 'live', scopes: ['tags:read'] })
        .expect(201);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.body.secret).toBe(secret);
    } finally {
      await rotatedApp.close();
    }
  });

  it('leaves no plaintext secret issued above in any table or column of the database', async () => {
    // The random part of each secret (without its readable prefix), so a copy stored without the prefix counts too.
    const randomParts = issued.map((s) => s.slice(-40));
    expect(await tablesContaining(app, randomParts)).toEqual([]);
    expect(issued).toHaveLength(8);
    // The scan sees what is stored: an API key's redacted form is, in api_keys.
    expect(storedInClear).toMatch(/^key_live_ent_qa1_\.\.\.[0-9A-Za-z]{4}$/);
    expect(await tablesContaining(app, [storedInClear])).toContain('public.api_keys');
  });
});
