import { Clock } from '../time/clock';
import {
  RateLimitDecision,
  RateLimiter,
  RateLimitStore,
  ResilientRateLimitStore,
  STORE_RETRY_MS,
  WINDOW_MS,
} from './rate-limiter';

/**
 * A store shared by several limiters, as PostgreSQL or Redis is shared by API instances: each
 * addition answers after a turn of the event loop, so requests of one instance pile up meanwhile.
 */
class MemoryStore extends RateLimitStore {
  counts = new Map<string, number>();
  writes = 0;
  async add(key: string, window: number, delta: number) {
    await new Promise((resolve) => setImmediate(resolve));
    this.writes++;
    const id = `${key}:${window}`;
    const total = (this.counts.get(id) ?? 0) + delta;
    this.counts.set(id, total);
    return total;
  }
  async purge() {}
}

/** A clock at the start of a window (minute 1000 since the epoch), moved by the test. */
const clockAtWindowStart = () => {
  const clock = new Clock();
  clock.set(1000 * WINDOW_MS);
  return clock;
};

const allowedOf = (decisions: RateLimitDecision[]) => decisions.filter((d) => d.allowed).length;

describe('rate limiter', () => {
  it('decides in order across instances, with the remaining budget', async () => {
    const store = new MemoryStore();
    const clock = clockAtWindowStart();
    const a = new RateLimiter(store, clock);
    const b = new RateLimiter(store, clock);
    const decisions = [
      await a.consume('k', 3),
      await b.consume('k', 3),
      await a.consume('k', 3),
      await b.consume('k', 3),
    ];
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, false]);
    expect(decisions.map((d) => d.remaining)).toEqual([2, 1, 0, 0]);
    expect(decisions.map((d) => d.resetSeconds)).toEqual([60, 60, 60, 60]);
  });

  it('lets exactly the limit through when 100 requests arrive at once on two instances', async () => {
    const store = new MemoryStore();
    const clock = clockAtWindowStart();
    const a = new RateLimiter(store, clock);
    const b = new RateLimiter(store, clock);
    const decisions = await Promise.all(
      Array.from({ length: 100 }, (_, i) => (i % 2 ? a : b).consume('k', 60)),
    );
    expect(allowedOf(decisions)).toBe(60);
    // Each count of the window was handed to exactly one request.
    const remaining = decisions.filter((d) => d.allowed).map((d) => d.remaining);
    expect([...remaining].sort((x, y) => x - y)).toEqual(Array.from({ length: 60 }, (_, i) => i));
    // Requests that arrived while an addition was out were added together: far fewer writes.
    expect(store.writes).toBeLessThanOrEqual(4);
  });

  it('refuses a key over its limit without asking the store again until the window ends', async () => {
    const store = new MemoryStore();
    const clock = clockAtWindowStart();
    const limiter = new RateLimiter(store, clock);
    for (let i = 0; i < 3; i++) await limiter.consume('k', 2);
    const writes = store.writes;
    const refused = limiter.consume('k', 2);
    // Answered at once (no promise), refused, and no write.
    expect(refused).toMatchObject({ allowed: false, remaining: 0 });
    expect(store.writes).toBe(writes);
    // A raised limit is asked about again.
    expect((await limiter.consume('k', 10)).allowed).toBe(true);
    clock.advance(WINDOW_MS);
    expect(await limiter.consume('k', 2)).toMatchObject({ allowed: true, remaining: 1, resetSeconds: 60 });
  });

  it('counts each window of the clock on its own, and reports the seconds left in it', async () => {
    const store = new MemoryStore();
    const clock = clockAtWindowStart();
    const limiter = new RateLimiter(store, clock);
    clock.advance(45_500);
    expect(await limiter.consume('k', 1)).toMatchObject({ allowed: true, resetSeconds: 15 });
    expect((await limiter.consume('k', 1)).allowed).toBe(false);
    clock.advance(14_500);
    expect(await limiter.consume('k', 1)).toMatchObject({ allowed: true, resetSeconds: 60 });
    expect([...store.counts.values()]).toEqual([2, 1]);
  });

  it('fails the requests of a failed addition and recovers with the next', async () => {
    const store = new MemoryStore();
    const limiter = new RateLimiter(store, clockAtWindowStart());
    const add = store.add.bind(store);
    store.add = () => Promise.reject(new Error('store down'));
    await expect(limiter.consume('k', 5)).rejects.toThrow('store down');
    store.add = add;
    expect(await limiter.consume('k', 5)).toMatchObject({ allowed: true, remaining: 4 });
  });
});

/** A MemoryStore that can be made unreachable (its additions fail as a refused connection). */
class FlakyStore extends MemoryStore {
  down = false;
  attempts = 0;
  override async add(key: string, window: number, delta: number) {
    this.attempts++;
    if (this.down)
      throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6379'), { code: 'ECONNREFUSED' });
    return super.add(key, window, delta);
  }
}

describe('rate limit store outage', () => {
  const setup = () => {
    const inner = new FlakyStore();
    let now = 0;
    const store = new ResilientRateLimitStore(inner, () => now);
    const limiter = new RateLimiter(store, clockAtWindowStart());
    return { inner, store, limiter, advance: (ms: number) => (now += ms) };
  };

  it('counts locally from the last shared total, with the same budget, while the store is down', async () => {
    const { inner, store, limiter } = setup();
    expect((await limiter.consume('k', 4)).remaining).toBe(3);
    inner.down = true;
    const during = [];
    for (let i = 0; i < 4; i++) during.push(await limiter.consume('k', 4));
    expect(during.map((d) => [d.allowed, d.remaining])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
    ]);
    expect(store.degraded).toBe(true);
    // One attempt failed; the others did not wait for the store.
    expect(inner.attempts).toBe(2);
  });

  it('asks the store again after STORE_RETRY_MS and hands it the requests counted meanwhile', async () => {
    const { inner, store, limiter, advance } = setup();
    inner.down = true;
    for (let i = 0; i < 3; i++) await limiter.consume('k', 10);
    inner.down = false;
    expect((await limiter.consume('k', 10)).remaining).toBe(6);
    expect(inner.counts.size).toBe(0);
    advance(STORE_RETRY_MS);
    expect((await limiter.consume('k', 10)).remaining).toBe(5);
    expect(store.degraded).toBe(false);
    // The shared total has the four local requests and this one.
    expect([...inner.counts.values()]).toEqual([5]);
  });

  it('does not hide errors that are not outages', async () => {
    const inner = new MemoryStore();
    inner.add = () => Promise.reject(new TypeError('bug'));
    const limiter = new RateLimiter(new ResilientRateLimitStore(inner), clockAtWindowStart());
    await expect(limiter.consume('k', 3)).rejects.toThrow('bug');
  });
});
