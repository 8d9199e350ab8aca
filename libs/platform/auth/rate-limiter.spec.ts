import { RequestContext } from '../tenancy/request-context';
import { RateLimiter, RateLimitStore } from './rate-limiter';

/** A store shared by several limiters, as PostgreSQL or Redis is shared by API instances. */
class MemoryStore extends RateLimitStore {
  counts = new Map<string, number>();
  writes = 0;
  async add(key: string, window: number, delta: number) {
    this.writes++;
    const id = `${key}:${window}`;
    const total = (this.counts.get(id) ?? 0) + delta;
    this.counts.set(id, total);
    return total;
  }
  async purge() {}
}

describe('rate limiter', () => {
  it('is exact for small limits across instances', async () => {
    const store = new MemoryStore();
    const a = new RateLimiter(store);
    const b = new RateLimiter(store);
    const decisions = [
      await a.consume('k', 3),
      await b.consume('k', 3),
      await a.consume('k', 3),
      await b.consume('k', 3),
    ];
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, false]);
    expect(decisions.map((d) => d.remaining)).toEqual([2, 1, 0, 0]);
    await a.onApplicationShutdown();
    await b.onApplicationShutdown();
  });

  it('counts far from the limit without a write per request, and flushes the total', async () => {
    const store = new MemoryStore();
    const limiter = new RateLimiter(store);
    for (let i = 0; i < 500; i++) expect((await limiter.consume('k', 6000)).allowed).toBe(true);
    expect(store.writes).toBe(1);
    await limiter.flush();
    expect([...store.counts.values()]).toEqual([500]);
    expect(store.writes).toBe(2);
    await limiter.onApplicationShutdown();
  });

  it('flushes on its timer outside the request that scheduled it', async () => {
    const seen: (string | undefined)[] = [];
    const store = new MemoryStore();
    const add = store.add.bind(store);
    store.add = (key, window, delta) => {
      seen.push(RequestContext.requestId());
      return add(key, window, delta);
    };
    const limiter = new RateLimiter(store);
    await RequestContext.run({ requestId: 'req_first' }, () => limiter.consume('k', 6000));
    await RequestContext.run({ requestId: 'req_second' }, () => limiter.consume('k', 6000));
    await new Promise((resolve) => setTimeout(resolve, 250));
    // The first request of the window asks the shared total itself; the timer's flush is no one's.
    expect(seen).toEqual(['req_first', undefined]);
    expect([...store.counts.values()]).toEqual([2]);
    await limiter.onApplicationShutdown();
  });

  it('switches to counting every request on the shared store near the limit', async () => {
    const store = new MemoryStore();
    const a = new RateLimiter(store);
    const b = new RateLimiter(store);
    for (let i = 0; i < 70; i++) await a.consume('k', 100);
    await a.flush();
    let allowed = 0;
    for (let i = 0; i < 60; i++) if ((await b.consume('k', 100)).allowed) allowed++;
    expect(allowed).toBe(30);
    // Instance a learns b's counts at its next flush (at most 100 ms later), then refuses too.
    await a.consume('k', 100);
    await a.flush();
    expect((await a.consume('k', 100)).allowed).toBe(false);
    await a.onApplicationShutdown();
    await b.onApplicationShutdown();
  });
});
