import { randomBytes } from 'node:crypto';
import { ApiKeyCache } from '#platform/auth/api-key-cache';
import { api, expectError } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';

const randomKey = (entityCode = 'qa1') => `key_live_ent_${entityCode}_${randomBytes(20).toString('hex')}`;
let ipSeq = 0;
/** A client address of its own (the apps trust X-Forwarded-For here). */
const freshIp = () => `198.51.100.${++ipSeq % 250}`;

/** Waits for the next one-minute window to begin (the budgets are per window). */
async function nextWindow() {
  await new Promise((r) => setTimeout(r, 60_000 - (Date.now() % 60_000) + 50));
}

/** Waits for a fresh one-minute window when less than `seconds` remain in this one (the budgets are per window). */
async function roomInWindow(seconds: number) {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < seconds * 1000) await new Promise((r) => setTimeout(r, left + 50));
}

const throttled = {
  TRUST_PROXY: 'true',
  AUTH_FAILURES_PER_MINUTE: 10,
  AUTH_FAILURES_PER_MINUTE_PER_ENTITY: 40,
  AUTH_FAILURE_MIN_MS: 30,
};

describe('key guessing', () => {
  let a: TestApp;

  beforeAll(async () => {
    a = await startTestApp(throttled);
  });
  afterAll(() => a.close());

  const get = (app: TestApp, key: string, ip: string) =>
    api(app, key).get('/v1/tags').set('X-Forwarded-For', ip);

  it('answers unknown and known-but-refused keys in the same time', async () => {
    const revoked = a.seed.entities.primary.keys.revoked;
    const expired = a.seed.entities.primary.keys.expired;
    // Warm the cache with the refused keys (they are found and cached; unknown keys are not).
    await get(a, revoked, freshIp());
    await get(a, expired, freshIp());
    const times: Record<'unknown' | 'refused', number[]> = { unknown: [], refused: [] };
    for (let i = 0; i < 16; i++) {
      for (const kind of ['unknown', 'refused'] as const) {
        const key = kind === 'unknown' ? randomKey('qa4') : i % 2 ? revoked : expired;
        const started = performance.now();
        const res = await get(a, key, freshIp());
        times[kind].push(performance.now() - started);
        expect(res.status).toBe(401);
      }
    }
    const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
    expect(median(times.unknown)).toBeGreaterThanOrEqual(30);
    expect(median(times.refused)).toBeGreaterThanOrEqual(30);
    expect(Math.abs(median(times.unknown) - median(times.refused))).toBeLessThan(10);
  });

  it('answers 429 rate_limited with Retry-After once a client is over its failure budget', async () => {
    await roomInWindow(15);
    const ip = '192.0.2.77';
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await get(a, randomKey('qa2'), ip)).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses.slice(10)).toEqual([429, 429]);
    const limited = await get(a, randomKey('qa2'), ip);
    expectError(limited, 429, 'rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Other clients are not affected; a key this instance knows valid still works from that address.
    expectError(await get(a, randomKey('qa2'), freshIp()), 401, 'invalid_api_key');
    await get(a, a.seed.entities.primary.keys.live, freshIp()).expect(200);
    await get(a, a.seed.entities.primary.keys.live, ip).expect(200);
  });

  it('limits failures per entity code across client addresses, without locking out known keys', async () => {
    // The first test's refused keys are qa1's: start from an empty window for that entity code.
    await nextWindow();
    // A key this instance knows is valid: one no earlier test used, so that it is cached now
    // (the cache keeps a key 60 s from its first lookup, which an earlier test's key may outlive
    // only by a few seconds after the wait above).
    const known = a.seed.entities.primary.keys.test;
    await get(a, known, freshIp()).expect(200);
    const statuses: number[] = [];
    for (let i = 0; i < 45; i++) statuses.push((await get(a, randomKey('qa1'), freshIp())).status);
    expect(statuses.slice(0, 40).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(41)).toEqual([429, 429, 429, 429]);
    await get(a, known, freshIp()).expect(200);
    expectError(await get(a, randomKey('zz9'), freshIp()), 401, 'invalid_api_key');
  }, 120_000);

  it('remembers unknown keys for a while: a flood of one key is one lookup', async () => {
    const cache = a.get(ApiKeyCache);
    const remember = jest.spyOn(cache, 'rememberUnknown');
    const key = randomKey('qa3');
    for (let i = 0; i < 8; i++) expectError(await get(a, key, freshIp()), 401, 'invalid_api_key');
    expect(remember).toHaveBeenCalledTimes(1);
    remember.mockRestore();
  });
});

describe('key guessing across instances', () => {
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    a = await startTestApp(throttled);
    b = await startTestApp(throttled, { sameDatabaseAs: a });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  it("counts one client's failures on every instance against one budget", async () => {
    await roomInWindow(15);
    const ip = '192.0.2.78';
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const app = i % 2 ? b : a;
      statuses.push((await api(app, randomKey('qa2')).get('/v1/tags').set('X-Forwarded-For', ip)).status);
    }
    // 6 failures on each instance: the 11th of the shared total is over the budget of 10.
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses.slice(10)).toEqual([429, 429]);
  });
});
