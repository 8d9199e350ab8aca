import { api, expectError } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';

/** The limiter counts fixed one-minute windows; start a burst early in a window so it stays in one. */
async function atWindowStart(): Promise<void> {
  const intoWindow = Date.now() % 60_000;
  if (intoWindow > 50_000) await new Promise((r) => setTimeout(r, 60_000 - intoWindow + 50));
}

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
  });
  afterAll(async () => {
    await second.close();
    await app.close();
  });

  it('counts down, then answers 429 rate_limited with Retry-After', async () => {
    const key = await keyWithLimit(3);
    await atWindowStart();
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
    await atWindowStart();
    const denied = await api(app, key).post('/v1/tags').send({ name: 'x' });
    expectError(denied, 403, 'insufficient_scope');
    expect(denied.headers['ratelimit-remaining']).toBe('1');
    expect((await api(app, key).get('/v1/tags').expect(200)).headers['ratelimit-remaining']).toBe('0');
    expectError(await api(app, key).get('/v1/tags'), 429, 'rate_limited');
  });

  it('shares one budget between two API instances on the same database', async () => {
    const key = await keyWithLimit(3);
    await atWindowStart();
    const first = await api(app, key).get('/v1/tags').expect(200);
    expect(first.headers['ratelimit-remaining']).toBe('2');
    const fromSecond = await api(second, key).get('/v1/tags').expect(200);
    expect(fromSecond.headers['ratelimit-remaining']).toBe('1');
    await api(app, key).get('/v1/tags').expect(200);
    expectError(await api(second, key).get('/v1/tags'), 429, 'rate_limited');
    expectError(await api(app, key).get('/v1/tags'), 429, 'rate_limited');
  });
});
