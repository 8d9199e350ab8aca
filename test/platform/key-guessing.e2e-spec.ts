import { randomBytes } from 'node:crypto';
import { ApiKeyCache } from '#platform/auth/api-key-cache';
import { ApiKeyService } from '#platform/auth/api-key.service';
import { hashKey } from '#platform/auth/key-format';
import { WINDOW_MS } from '#platform/auth/rate-limiter';
import { Clock } from '#platform/time/clock';
import { api, expectError } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';

/** A key of the format issued before checksums (40 random characters): only a lookup can refuse it. */
const legacyKey = (entityCode = 'qa1') => `key_live_ent_${entityCode}_${randomBytes(20).toString('hex')}`;
/** A guess at a key of today's format (46 characters): its checksum is wrong but for 1 in 5.7e10. */
const guessedKey = (entityCode = 'qa1') => `key_live_ent_${entityCode}_${randomBytes(23).toString('hex')}`;
let ipSeq = 0;
/** A client address of its own (the apps trust X-Forwarded-For here). */
const freshIp = () => `198.51.100.${++ipSeq % 250}`;

let windows = 0;
/**
 * Moves the apps' clocks to the start of a one-minute window no earlier test used (the failure
 * budgets are per window), instead of waiting for one.
 */
function freshWindow(...apps: TestApp[]) {
  const start = (Math.floor(Date.now() / WINDOW_MS) + 10 + ++windows) * WINDOW_MS;
  for (const app of apps) app.get(Clock).set(start);
}

/** Counts the key lookups (database reads) an app makes while `run` runs. */
async function lookupsDuring(app: TestApp, run: () => Promise<void>): Promise<number> {
  const service = app.get(ApiKeyService) as unknown as { load: (hash: string) => Promise<unknown> };
  const load = jest.spyOn(service, 'load');
  try {
    await run();
    return load.mock.calls.length;
  } finally {
    load.mockRestore();
  }
}

const throttled = {
  TRUST_PROXY: '127.0.0.1',
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

  it('answers unknown and known-but-refused keys no sooner than the minimum, whatever they cost', async () => {
    freshWindow(a);
    const revoked = a.seed.entities.primary.keys.revoked;
    const expired = a.seed.entities.primary.keys.expired;
    // Warm the cache with the refused keys (they are found and cached; unknown keys are not).
    await get(a, revoked, freshIp());
    await get(a, expired, freshIp());
    const times: Record<'unknown' | 'refused', number[]> = { unknown: [], refused: [] };
    const lookups: Record<'unknown' | 'refused', number> = { unknown: 0, refused: 0 };
    for (let i = 0; i < 6; i++) {
      for (const kind of ['unknown', 'refused'] as const) {
        const key = kind === 'unknown' ? legacyKey('qa4') : i % 2 ? revoked : expired;
        const started = performance.now();
        let status = 0;
        lookups[kind] += await lookupsDuring(a, async () => {
          status = (await get(a, key, freshIp())).status;
        });
        times[kind].push(performance.now() - started);
        expect(status).toBe(401);
      }
    }
    // An unknown key costs a lookup, a cached refused key none; both answer after the minimum.
    expect(lookups).toEqual({ unknown: 6, refused: 0 });
    expect(Math.min(...times.unknown)).toBeGreaterThanOrEqual(30);
    expect(Math.min(...times.refused)).toBeGreaterThanOrEqual(30);
  });

  it('answers 429 rate_limited with Retry-After once a client is over its failure budget', async () => {
    freshWindow(a);
    const ip = '192.0.2.77';
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await get(a, legacyKey('qa2'), ip)).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses.slice(10)).toEqual([429, 429]);
    const limited = await get(a, legacyKey('qa2'), ip);
    expectError(limited, 429, 'rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expectError(await get(a, guessedKey('qa2'), ip), 429, 'rate_limited');
    // Other clients are not affected; a key this instance knows valid still works from that address.
    expectError(await get(a, legacyKey('qa2'), freshIp()), 401, 'invalid_api_key');
    await get(a, a.seed.entities.primary.keys.live, freshIp()).expect(200);
    await get(a, a.seed.entities.primary.keys.live, ip).expect(200);
  });

  it('answers a valid key this instance never saw with 200 after a flood of wrong keys from its address', async () => {
    const created = await api(a, a.seed.entities.primary.keys.live)
      .post(`/v1/entities/${a.seed.entities.primary.id}/api_keys`)
      .send({ name: 'behind the shared NAT', scopes: ['tags:read'] })
      .expect(201);
    const secret = created.body.secret as string;
    freshWindow(a);
    const shared = '192.0.2.80';
    const flood: number[] = [];
    for (let i = 0; i < 20; i++)
      flood.push((await get(a, i % 2 ? guessedKey() : legacyKey(), shared)).status);
    expect(flood.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(flood.slice(10)).toEqual(Array(10).fill(429));
    expect(a.get(ApiKeyCache).get(hashKey(secret))).toBeUndefined();
    // Its checksum shows it is no guess: it is looked up and answered, from the flooded address.
    const lookups = await lookupsDuring(a, async () => {
      await get(a, secret, shared).expect(200);
    });
    expect(lookups).toBe(1);
    await get(a, secret, shared).expect(200);
  });

  it('refuses a key with a wrong checksum without a lookup', async () => {
    freshWindow(a);
    const lookups = await lookupsDuring(a, async () => {
      for (let i = 0; i < 5; i++) {
        const key = guessedKey('qa5');
        const res = await get(a, key, freshIp());
        expectError(res, 401, 'invalid_api_key', {
          hint: `No such API key: key_live_ent_qa5_...${key.slice(-4)}.`,
        });
      }
    });
    expect(lookups).toBe(0);
  });

  it('limits failures per entity code across client addresses, without locking out known keys', async () => {
    freshWindow(a);
    const known = a.seed.entities.primary.keys.test;
    await get(a, known, freshIp()).expect(200);
    const statuses: number[] = [];
    for (let i = 0; i < 45; i++) statuses.push((await get(a, legacyKey('qa1'), freshIp())).status);
    expect(statuses.slice(0, 40).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(41)).toEqual([429, 429, 429, 429]);
    await get(a, known, freshIp()).expect(200);
    expectError(await get(a, legacyKey('zz9'), freshIp()), 401, 'invalid_api_key');
  });

  it('remembers unknown keys for a while: a flood of one key is one lookup', async () => {
    freshWindow(a);
    const cache = a.get(ApiKeyCache);
    const remember = jest.spyOn(cache, 'rememberUnknown');
    const key = legacyKey('qa3');
    const lookups = await lookupsDuring(a, async () => {
      for (let i = 0; i < 8; i++) expectError(await get(a, key, freshIp()), 401, 'invalid_api_key');
    });
    expect(lookups).toBe(1);
    expect(remember).toHaveBeenCalledTimes(1);
    remember.mockRestore();
    // Once the negative entry's lifetime has passed on the clock, the key is looked up again.
    a.get(Clock).advance(a.config.AUTH_NEGATIVE_CACHE_MS + 1);
    expect(
      await lookupsDuring(a, async () => {
        expectError(await get(a, key, freshIp()), 401, 'invalid_api_key');
      }),
    ).toBe(1);
  });
});

describe('key guessing across instances', () => {
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    a = await startTestApp(throttled);
    b = await startTestApp(throttled, { sameDatabaseAs: a });
    // Two instances boot one after the other: more than one hook's default on a loaded machine.
  }, 180_000);
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  it("counts one client's failures on every instance against one budget", async () => {
    freshWindow(a, b);
    const ip = '192.0.2.78';
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const app = i % 2 ? b : a;
      statuses.push((await api(app, legacyKey('qa2')).get('/v1/tags').set('X-Forwarded-For', ip)).status);
    }
    // 6 failures on each instance: the 11th of the shared total is over the budget of 10.
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses.slice(10)).toEqual([429, 429]);
  });

  it('believes X-Forwarded-For only from the proxies TRUST_PROXY names', async () => {
    const untrusting = await startTestApp({ ...throttled, TRUST_PROXY: '10.0.0.0/8' }, { sameDatabaseAs: a });
    try {
      const key = (
        await api(a, a.seed.entities.primary.keys.live)
          .post(`/v1/entities/${a.seed.entities.primary.id}/api_keys`)
          .send({ name: 'allowlisted', scopes: ['tags:read'], ip_allowlist: ['203.0.113.0/24'] })
          .expect(201)
      ).body.secret as string;
      // 127.0.0.1 is a trusted proxy of `a`: the client is the forwarded address, on the allowlist.
      await api(a, key).get('/v1/tags').set('X-Forwarded-For', '203.0.113.9').expect(200);
      expectError(
        await api(a, key).get('/v1/tags').set('X-Forwarded-For', '198.51.100.9'),
        403,
        'ip_not_allowed',
      );
      // Not one of `untrusting`'s proxies: the header is ignored and the client is 127.0.0.1.
      expectError(
        await api(untrusting, key).get('/v1/tags').set('X-Forwarded-For', '203.0.113.9'),
        403,
        'ip_not_allowed',
      );
    } finally {
      await untrusting.close();
    }
  }, 180_000);
});
