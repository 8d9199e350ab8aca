import { randomUUID } from 'node:crypto';
import type { Job } from 'bullmq';
import { RateLimiter } from '#platform/auth/rate-limiter';
import { IdempotencyService } from '#platform/http/idempotency/idempotency.service';
import { newId } from '#platform/persistence/ids';
import { MaintenanceProcessor } from '#platform/queue/maintenance.processor';
import { api, expectError } from '../support/http';
import { expireIdempotencyKeys, idempotencyRecords } from '../support/database';
import { listInEverySeededScope } from '../support/list-all';
import { outbox } from '../support/outbox';
import { startTestApp, TestApp } from '../support/test-app';

describe('idempotency (Idempotency-Key on POST, PATCH, DELETE)', () => {
  let app: TestApp;
  let live: ReturnType<typeof api>;

  beforeAll(async () => {
    app = await startTestApp();
    live = api(app, app.seed.entities.primary.keys.live);
  });
  afterAll(() => app.close());

  const key = () => `idem-${randomUUID()}`;
  /** Tags with this name in every seeded entity and mode, through the tags list of each. */
  const countTags = async (name: string) =>
    (await listInEverySeededScope(app, '/v1/tags')).filter((t) => t.name === name).length;
  // The idempotency store is storage no route shows.
  const storedKeys = async (k: string) => (await idempotencyRecords(app, k)).length;

  it('replays a POST with the same status and body and creates nothing twice', async () => {
    const k = key();
    const first = await live
      .post('/v1/tags')
      .set('Idempotency-Key', k)
      .send({ name: 'idem once', color: '#00AA00' })
      .expect(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const replay = await live
      .post('/v1/tags')
      .set('Idempotency-Key', k)
      .send({ color: '#00AA00', name: 'idem once' });
    expect(replay.status).toBe(201);
    expect(replay.body).toEqual(first.body);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.headers['content-type']).toMatch(/application\/json/);
    expect(replay.headers['request-id']).not.toBe(first.headers['request-id']);
    expect(await countTags('idem once')).toBe(1);
    const events = await outbox(app).typesOf(first.body.id);
    expect(events.filter((t) => t === 'setting.tag.created')).toHaveLength(1);
  });

  it('replays the first response byte for byte, fields in their order', async () => {
    const k = key();
    const body = {
      name: 'Replay Order Co',
      email: 'ap@replay.example',
      metadata: { z: '1', a: '2', m: '3' },
    };
    const first = await live.post('/v1/accounts').set('Idempotency-Key', k).send(body).expect(201);
    const replay = await live.post('/v1/accounts').set('Idempotency-Key', k).send(body).expect(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(Object.keys(replay.body)).toEqual(Object.keys(first.body));
    expect(replay.text).toBe(first.text);
  });

  it('replays PATCH and DELETE', async () => {
    const tag = (await live.post('/v1/tags').send({ name: 'idem patch' }).expect(201)).body;
    const k = key();
    const patched = await live
      .patch(`/v1/tags/${tag.id}`)
      .set('Idempotency-Key', k)
      .send({ name: 'idem patched' })
      .expect(200);
    await live.patch(`/v1/tags/${tag.id}`).send({ name: 'changed since' }).expect(200);
    const replay = await live
      .patch(`/v1/tags/${tag.id}`)
      .set('Idempotency-Key', k)
      .send({ name: 'idem patched' })
      .expect(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(patched.body);
    expect((await live.get(`/v1/tags/${tag.id}`).expect(200)).body.name).toBe('changed since');

    const d = key();
    const deleted = await live.delete(`/v1/tags/${tag.id}`).set('Idempotency-Key', d).expect(200);
    expect(deleted.body).toEqual({ id: tag.id, object: 'tag', deleted: true });
    const again = await live.delete(`/v1/tags/${tag.id}`).set('Idempotency-Key', d).expect(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(deleted.body);
    expectError(await live.delete(`/v1/tags/${tag.id}`).set('Idempotency-Key', key()), 404, 'not_found');
  });

  it('refuses the same key with a different body, method or path', async () => {
    const k = key();
    const first = await live
      .post('/v1/tags')
      .set('Idempotency-Key', k)
      .send({ name: 'idem reuse' })
      .expect(201);
    expectError(
      await live.post('/v1/tags').set('Idempotency-Key', k).send({ name: 'idem reuse 2' }),
      400,
      'idempotency_key_reused',
      {
        type: 'idempotency_error',
      },
    );
    expectError(
      await live.patch(`/v1/tags/${first.body.id}`).set('Idempotency-Key', k).send({ name: 'idem reuse' }),
      400,
      'idempotency_key_reused',
    );
    expect(await countTags('idem reuse 2')).toBe(0);

    const a = (await live.post('/v1/tags').send({ name: 'path a' }).expect(201)).body;
    const b = (await live.post('/v1/tags').send({ name: 'path b' }).expect(201)).body;
    const p = key();
    await live.patch(`/v1/tags/${a.id}`).set('Idempotency-Key', p).send({ color: '#123456' }).expect(200);
    expectError(
      await live.patch(`/v1/tags/${b.id}`).set('Idempotency-Key', p).send({ color: '#123456' }),
      400,
      'idempotency_key_reused',
    );
    expect((await live.get(`/v1/tags/${b.id}`).expect(200)).body.color).toBeNull();
  });

  it('accepts keys of 255 characters and refuses 256', async () => {
    const long = 'k'.repeat(256);
    expectError(
      await live.post('/v1/tags').set('Idempotency-Key', long).send({ name: 'too long key' }),
      400,
      'idempotency_key_too_long',
      {
        type: 'validation_error',
      },
    );
    expect(await countTags('too long key')).toBe(0);
    const ok = 'k'.repeat(255);
    const first = await live
      .post('/v1/tags')
      .set('Idempotency-Key', ok)
      .send({ name: 'long key' })
      .expect(201);
    const replay = await live
      .post('/v1/tags')
      .set('Idempotency-Key', ok)
      .send({ name: 'long key' })
      .expect(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body.id).toBe(first.body.id);
  });

  it('runs the operation once for 20 concurrent requests with one key', async () => {
    const k = key();
    const responses = await Promise.all(
      Array.from({ length: 20 }, () =>
        live.post('/v1/tags').set('Idempotency-Key', k).send({ name: 'idem concurrent' }),
      ),
    );
    expect(await countTags('idem concurrent')).toBe(1);
    const created = responses.filter((r) => r.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(created.filter((r) => r.headers['idempotent-replayed'] !== 'true')).toHaveLength(1);
    expect(new Set(created.map((r) => r.body.id)).size).toBe(1);
    for (const r of responses.filter((x) => x.status !== 201)) {
      expectError(r, 409, 'idempotency_key_in_use', { type: 'idempotency_error' });
    }
    const after = await live
      .post('/v1/tags')
      .set('Idempotency-Key', k)
      .send({ name: 'idem concurrent' })
      .expect(201);
    expect(after.headers['idempotent-replayed']).toBe('true');
    expect(after.body.id).toBe(created[0].body.id);
  });

  it('does not store a request refused by validation before the handler', async () => {
    const k = key();
    expectError(
      await live.post('/v1/tags').set('Idempotency-Key', k).send({ name: 42 }),
      400,
      'parameter_invalid',
      { param: 'name' },
    );
    expectError(
      await live.post('/v1/tags').set('Idempotency-Key', k).send({ name: 'x', bogus: 1 }),
      400,
      'parameter_unknown',
    );
    expect(await storedKeys(k)).toBe(0);
    const fixed = await live
      .post('/v1/tags')
      .set('Idempotency-Key', k)
      .send({ name: 'idem corrected' })
      .expect(201);
    expect(fixed.headers['idempotent-replayed']).toBeUndefined();
    expect(await countTags('idem corrected')).toBe(1);
    // Nor an authentication or scope failure.
    const a = key();
    expectError(
      await api(app, app.seed.entities.primary.keys.read_only)
        .post('/v1/tags')
        .set('Idempotency-Key', a)
        .send({ name: 'ro' }),
      403,
      'insufficient_scope',
    );
    expect(await storedKeys(a)).toBe(0);
  });

  it('stores and replays a 404 answered by the handler', async () => {
    const k = key();
    const missing = newId();
    const first = await live.patch(`/v1/tags/${missing}`).set('Idempotency-Key', k).send({ name: 'nothing' });
    expectError(first, 404, 'not_found');
    expect(await storedKeys(k)).toBe(1);
    const replay = await live
      .patch(`/v1/tags/${missing}`)
      .set('Idempotency-Key', k)
      .send({ name: 'nothing' });
    expect(replay.status).toBe(404);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.headers['content-type']).toMatch(/application\/json/);
    // The replay answers as itself; Original-Request names the request that produced the outcome.
    expectError(replay, 404, 'not_found');
    expect(replay.body).toEqual({ ...first.body, request_id: replay.headers['request-id'] });
    expect(replay.headers['original-request']).toBe(first.headers['request-id']);
  });

  it('scopes keys by entity and mode', async () => {
    const k = key();
    const liveTag = await live
      .post('/v1/tags')
      .set('Idempotency-Key', k)
      .send({ name: 'idem scoped' })
      .expect(201);
    const testTag = await api(app, app.seed.entities.primary.keys.test)
      .post('/v1/tags')
      .set('Idempotency-Key', k)
      .send({ name: 'idem scoped' })
      .expect(201);
    const otherTag = await api(app, app.seed.entities.secondary.keys.live)
      .post('/v1/tags')
      .set('Idempotency-Key', k)
      .send({ name: 'idem scoped' })
      .expect(201);
    for (const r of [testTag, otherTag]) expect(r.headers['idempotent-replayed']).toBeUndefined();
    expect(new Set([liveTag.body.id, testTag.body.id, otherTag.body.id]).size).toBe(3);
    expect(testTag.body.livemode).toBe(false);
    expect(await countTags('idem scoped')).toBe(3);
    expect(await storedKeys(k)).toBe(3);
  });

  it('runs a request anew once its key expired', async () => {
    const k = key();
    const first = await live
      .post('/v1/tags')
      .set('Idempotency-Key', k)
      .send({ name: 'idem expiring' })
      .expect(201);
    const [stored] = await idempotencyRecords(app, k);
    const ttl = stored.expires_at.getTime() - stored.created_at.getTime();
    expect(ttl).toBe(24 * 60 * 60 * 1000);
    await expireIdempotencyKeys(app, [k]);
    const second = await live
      .post('/v1/tags')
      .set('Idempotency-Key', k)
      .send({ name: 'idem expiring' })
      .expect(201);
    expect(second.headers['idempotent-replayed']).toBeUndefined();
    expect(second.body.id).not.toBe(first.body.id);
    expect(await countTags('idem expiring')).toBe(2);
    expect(await storedKeys(k)).toBe(1);
  });

  it('purges expired records only, directly and through the maintenance job', async () => {
    const make = async (n: number, expired: boolean) => {
      const keys: string[] = [];
      for (let i = 0; i < n; i++) {
        const k = key();
        keys.push(k);
        await live
          .post('/v1/tags')
          .set('Idempotency-Key', k)
          .send({ name: `purge ${k}` })
          .expect(201);
      }
      if (expired) await expireIdempotencyKeys(app, keys);
      return keys;
    };
    const total = async () => (await idempotencyRecords(app)).length;

    const expired = await make(3, true);
    const fresh = await make(2, false);
    const before = await total();
    expect(await app.get(IdempotencyService).purgeExpired()).toBe(3);
    expect(await total()).toBe(before - 3);
    for (const k of expired) expect(await storedKeys(k)).toBe(0);
    for (const k of fresh) expect(await storedKeys(k)).toBe(1);

    const expiredAgain = await make(2, true);
    const processor = new MaintenanceProcessor(app.get(IdempotencyService), app.get(RateLimiter));
    const result = await processor.process({ name: 'purge-idempotency-keys' } as Job<
      unknown,
      unknown,
      'purge-idempotency-keys'
    >);
    expect(result).toEqual({ purged: 2 });
    for (const k of expiredAgain) expect(await storedKeys(k)).toBe(0);
    for (const k of fresh) expect(await storedKeys(k)).toBe(1);
    expect(await total()).toBe(before - 3);
    expect(
      await processor.process({ name: 'purge-idempotency-keys' } as Job<
        unknown,
        unknown,
        'purge-idempotency-keys'
      >),
    ).toEqual({ purged: 0 });
  });
});
