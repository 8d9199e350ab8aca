import { RateLimitStore, ResilientRateLimitStore, WINDOW_MS } from '#platform/auth/rate-limiter';
import { QueueAvailability } from '#platform/queue/queue-availability';
import { Clock } from '#platform/time/clock';
import { waitFor } from '../support/eventually';
import { api, expectError } from '../support/http';
import { PrivateRedis } from '../support/redis-server';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * An outage of the rate limit's store (Redis): this file owns a private redis-server, stops it
 * and starts it again. Reads and writes that need no queue are still served and still limited
 * (each instance applies the key's budget by itself), /ready answers at once, and the shared
 * count and readiness come back within a second or two of Redis.
 */
/** How long Redis stays down. */
const OUTAGE_MS = 15_000;

describe('Redis outage', () => {
  let redis: PrivateRedis;
  let app: TestApp;
  let second: TestApp;
  let keysPath: string;
  let importsPath: string;

  beforeAll(async () => {
    redis = await PrivateRedis.start();
    app = await startTestApp({ REDIS_URL: redis.url });
    second = await startTestApp({ REDIS_URL: redis.url }, { sameDatabaseAs: app });
    keysPath = `/v1/entities/${app.seed.entities.primary.id}/api_keys`;
    importsPath = `/v1/entities/${app.seed.entities.primary.id}/migration/imports`;
    // Both instances count in one window that starts now (a fixed one-minute window per key).
    const start = (Math.floor(Date.now() / WINDOW_MS) + 5) * WINDOW_MS;
    app.get(Clock).set(start);
    second.get(Clock).set(start);
  }, 180_000);
  afterAll(async () => {
    // Queues close cleanly only with their store there (after a failure during the outage).
    if (redis && !redis.running) await redis.start();
    await second?.close();
    await app?.close();
    await redis?.stop();
  });

  const admin = () => app.seed.entities.primary.keys.live;
  const keyWithLimit = async (limit: number) => {
    const res = await api(app, admin())
      .post(keysPath)
      .send({ name: `outage ${limit}`, scopes: ['tags:read', 'tags:write'], rate_limit_per_minute: limit })
      .expect(201);
    return res.body.secret as string;
  };
  const remaining = async (target: TestApp, key: string) => {
    const res = await api(target, key).get('/v1/tags').expect(200);
    return Number(res.headers['ratelimit-remaining']);
  };
  const timedReady = async (target: TestApp) => {
    const started = performance.now();
    const res = await api(target).get('/ready');
    return { res, ms: performance.now() - started };
  };
  const migration = () => api(app, app.seed.entities.primary.keys.migration);
  // Stored imports, read from the table (imports have no list route).
  const importCount = async () => Number((await app.db.query('SELECT count(*) AS n FROM imports')).rows[0].n);
  const startImport = (name: string) =>
    migration()
      .post(importsPath)
      .send({ resource: 'tags', records: [{ external_id: name, name }] });
  const degraded = (target: TestApp) => (target.get(RateLimitStore) as ResilientRateLimitStore).degraded;

  it('serves reads and writes with the same per-key budget on each instance, and /ready follows Redis', async () => {
    const five = await keyWithLimit(5);
    const ten = await keyWithLimit(10);
    expect(await remaining(app, five)).toBe(4);
    expect(await remaining(app, five)).toBe(3);
    expect((await timedReady(app)).res.status).toBe(200);

    await redis.stop();
    const stoppedAt = performance.now();

    // The key goes on from the total the store last answered (2 of 5), on this instance alone.
    const during = await api(app, five).get('/v1/tags').expect(200);
    expect(during.headers['ratelimit-limit']).toBe('5');
    expect(during.headers['ratelimit-remaining']).toBe('2');
    expect(degraded(app)).toBe(true);
    const write = await api(app, five).post('/v1/tags').send({ name: 'written during the Redis outage' });
    expect(write.status).toBe(201);
    expect(write.headers['ratelimit-remaining']).toBe('1');
    expect((await api(app, admin()).get(`/v1/tags/${write.body.id}`).expect(200)).body.name).toBe(
      'written during the Redis outage',
    );
    expect(await remaining(app, five)).toBe(0);
    const limited = await api(app, five).get('/v1/tags');
    expectError(limited, 429, 'rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);

    // A write that queues a job is refused before anything is written, at once, with Retry-After.
    const importsBefore = await importCount();
    await waitFor(() => !app.get(QueueAvailability).reachable, { label: 'the queues noticing the outage' });
    const started = performance.now();
    const refused = await startImport('during the outage').timeout(5_000);
    expect(performance.now() - started).toBeLessThan(500);
    expectError(refused, 503, 'service_unavailable');
    expect(refused.headers['retry-after']).toBe('5');
    expect(refused.body.hint).toMatch(/queue is unreachable/);
    expect(await importCount()).toBe(importsBefore);

    // A key created during the outage gets exactly its budget on each instance, no more.
    const two = await keyWithLimit(2);
    for (const target of [app, second]) {
      expect(await remaining(target, two)).toBe(1);
      expect(await remaining(target, two)).toBe(0);
      expectError(await api(target, two).get('/v1/tags'), 429, 'rate_limited');
    }

    // Four requests of a 10-per-minute key counted on the first instance alone.
    for (const left of [9, 8, 7, 6]) expect(await remaining(app, ten)).toBe(left);

    // /ready answers at once, naming what is down; never a request that waits for Redis. The
    // outage lasts OUTAGE_MS: long enough for a reconnection back-off to grow (BullMQ's own grows
    // to 20 s between attempts, which kept /ready at 503 for 11-13 s after Redis was back).
    while (performance.now() - stoppedAt < OUTAGE_MS) {
      const { res, ms } = await timedReady(app);
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ status: 'unavailable', checks: { database: 'ok', queue: 'unreachable' } });
      expect(ms).toBeLessThan(500);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }

    await redis.start();
    const back = performance.now();
    await waitFor(async () => (await api(app).get('/ready')).status === 200, {
      timeoutMs: 10_000,
      everyMs: 50,
      label: '/ready answering 200 after Redis is back',
    });
    expect(performance.now() - back).toBeLessThan(2000);

    // Both instances count in Redis again: wait until each store answered (another key's requests).
    for (const target of [app, second]) {
      await waitFor(
        async () => (await api(target, admin()).get('/v1/tags').expect(200)) && !degraded(target),
        {
          timeoutMs: 10_000,
          everyMs: 50,
          label: 'the rate limit store answering again',
        },
      );
    }
    await waitFor(() => app.get(QueueAvailability).reachable, { label: 'every queue connected again' });
    expect((await startImport('after the outage').expect(201)).body).toMatchObject({
      status: 'queued',
      total: 1,
    });
    expect(await importCount()).toBe(importsBefore + 1);

    // The first instance's first addition carries the four requests it counted alone, so the
    // second instance's next request is the sixth of the window (the restarted Redis had none).
    expect(await remaining(app, ten)).toBe(5);
    expect(await remaining(second, ten)).toBe(4);
  });
});
