import { WINDOW_MS } from '#platform/auth/rate-limiter';
import { Clock } from '#platform/time/clock';
import { api, expectError } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';

let windows = 0;

describe('per-key rate limit', () => {
  let app: TestApp;
  let second: TestApp;
  let path: string;

  const keyWithLimit = async (limit: number) => {
    const res = await api(app, app.seed.entities.primary.keys.live)
      .post(path)
      .send({ name: `limit ${limit}`, scopes: ['tags:read'], rate_limit_per_minute: limit })
      .expect(201);
    expect(res.body.rate_limit_per_minute).toBe(limit);
    return res.body.secret as string;
  };

  beforeAll(async () => {
    app = await startTestApp();
    second = await startTestApp({}, { sameDatabaseAs: app });
    path = `/v1/entities/${app.seed.entities.primary.id}/api_keys`;
    // Two instances boot one after the other: more than one hook's default on a loaded machine.
  }, 180_000);
  afterAll(async () => {
    await second.close();
    await app.close();
  });

  /**
   * Moves both instances' clocks to the start of a window no earlier test used: the limiter
   * counts fixed one-minute windows, and a test's requests then all fall in this one.
   */
  const atWindowStart = () => {
    const start = (Math.floor(Date.now() / WINDOW_MS) + 10 + ++windows) * WINDOW_MS;
    app.get(Clock).set(start);
    second.get(Clock).set(start);
  };

  it('counts down, then answers 429 rate_limited with Retry-After', async () => {
    const key = await keyWithLimit(3);
    atWindowStart();
    const remaining: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await api(app, key).get('/v1/tags').expect(200);
      expect(res.headers['ratelimit-limit']).toBe('3');
      remaining.push(res.headers['ratelimit-remaining']);
      const reset = Number(res.headers['ratelimit-reset']);
      expect(reset).toBeGreaterThanOrEqual(1);
      expect(reset).toBeLessThanOrEqual(60);
    }
    expect(remaining).toEqual(['2', '1', '0']);

    const limited = await api(app, key).get('/v1/tags');
    expectError(limited, 429, 'rate_limited', { type: 'rate_limit' });
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.headers['ratelimit-limit']).toBe('3');
    expect(limited.headers['ratelimit-remaining']).toBe('0');
    expect(limited.body.hint).toMatch(/3 requests per minute/);

    // Other keys keep their own budget.
    const other = await api(app, app.seed.entities.primary.keys.live).get('/v1/tags').expect(200);
    expect(Number(other.headers['ratelimit-limit'])).toBe(app.config.RATE_LIMIT_PER_MINUTE);
  });

  it('counts refused requests of an authenticated key too, and errors carry the headers', async () => {
    const key = await keyWithLimit(2);
    atWindowStart();
    const denied = await api(app, key).post('/v1/tags').send({ name: 'x' });
    expectError(denied, 403, 'insufficient_scope');
    expect(denied.headers['ratelimit-remaining']).toBe('1');
    expect((await api(app, key).get('/v1/tags').expect(200)).headers['ratelimit-remaining']).toBe('0');
    expectError(await api(app, key).get('/v1/tags'), 429, 'rate_limited');
  });

  it('shares one budget between two API instances on the same database', async () => {
    const key = await keyWithLimit(3);
    atWindowStart();
    const first = await api(app, key).get('/v1/tags').expect(200);
    expect(first.headers['ratelimit-remaining']).toBe('2');
    const fromSecond = await api(second, key).get('/v1/tags').expect(200);
    expect(fromSecond.headers['ratelimit-remaining']).toBe('1');
    await api(app, key).get('/v1/tags').expect(200);
    expectError(await api(second, key).get('/v1/tags'), 429, 'rate_limited');
    expectError(await api(app, key).get('/v1/tags'), 429, 'rate_limited');
  });

  it('lets at most the limit through of 100 concurrent requests spread over two instances', async () => {
    const key = await keyWithLimit(60);
    atWindowStart();
    const responses = await Promise.all(
      Array.from({ length: 100 }, (_, i) => api(i % 2 ? second : app, key).get('/v1/tags')),
    );
    const statuses = responses.map((res) => res.status);
    expect(statuses.filter((status) => status !== 200 && status !== 429)).toEqual([]);
    expect(statuses.filter((status) => status === 200)).toHaveLength(60);
    // Every count of the window went to one request: the remaining budgets are 59..0, each once.
    const remaining = responses
      .filter((res) => res.status === 200)
      .map((res) => Number(res.headers['ratelimit-remaining']));
    expect(remaining.sort((x, y) => x - y)).toEqual(Array.from({ length: 60 }, (_, i) => i));
    // The next window gives the key its budget again.
    app.get(Clock).advance(WINDOW_MS);
    expect((await api(app, key).get('/v1/tags').expect(200)).headers['ratelimit-remaining']).toBe('59');
  });
});
