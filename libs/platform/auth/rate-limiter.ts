import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { rawPool } from '../persistence/raw-pool';
import { RequestContext } from '../tenancy/request-context';

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
}

export const WINDOW_MS = 60_000;
const FLUSH_INTERVAL_MS = 100;

function decide(count: number, limit: number, now: number): RateLimitDecision {
  const windowEnd = Math.floor(now / WINDOW_MS) * WINDOW_MS + WINDOW_MS;
  return {
    allowed: count <= limit,
    limit,
    remaining: Math.max(0, limit - count),
    resetSeconds: Math.max(1, Math.ceil((windowEnd - now) / 1000)),
  };
}

/** Where the per-key, per-window counts live; every API instance shares it. */
export abstract class RateLimitStore {
  /** Adds `delta` to the key's count in `window` and returns the new total. */
  abstract add(apiKeyId: string, window: number, delta: number): Promise<number>;
  /** Drops counters of past windows. */
  abstract purge(): Promise<void>;
  async close(): Promise<void> {}
}

/** Counts in an unlogged PostgreSQL table (the default when no Redis is configured). */
export class PostgresRateLimitStore extends RateLimitStore {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async add(apiKeyId: string, window: number, delta: number): Promise<number> {
    const { rows } = await rawPool(this.dataSource).query<{ count: number }>(
      `INSERT INTO rate_limit_windows (api_key_id, window_start, count) VALUES ($1, $2, $3)
       ON CONFLICT (api_key_id, window_start) DO UPDATE SET count = rate_limit_windows.count + EXCLUDED.count
       RETURNING count`,
      [apiKeyId, new Date(window * WINDOW_MS), delta],
    );
    return rows[0].count;
  }

  async purge(): Promise<void> {
    await this.dataSource.query(
      `DELETE FROM rate_limit_windows WHERE window_start < now() - interval '2 minutes'`,
    );
  }
}

/** Counts in Redis when REDIS_URL is set. */
export class RedisRateLimitStore extends RateLimitStore {
  private readonly redis: Redis;

  constructor(
    url: string,
    private readonly prefix: string,
  ) {
    super();
    this.redis = new Redis(url, { maxRetriesPerRequest: 2 });
  }

  async add(apiKeyId: string, window: number, delta: number): Promise<number> {
    const key = `${this.prefix}:rl:${apiKeyId}:${window}`;
    const result = await this.redis
      .multi()
      .incrby(key, delta)
      .pexpire(key, WINDOW_MS * 2)
      .exec();
    return Number(result?.[0]?.[1] ?? delta);
  }

  async purge(): Promise<void> {
    // Redis expires the counters itself.
  }

  override async close(): Promise<void> {
    await this.redis.quit().catch(() => undefined);
  }
}

interface WindowState {
  window: number;
  /** The shared total as of the last write this instance made. */
  shared: number;
  /** Requests counted here and not yet added to the shared total. */
  pending: number;
}

/**
 * A fixed one-minute window per key, shared by every API instance through the store. Far
 * from the limit, requests are counted locally and added to the store every 100 ms, so the
 * hot path makes no write; the first request of a window and every request within 20% (or
 * 10 requests) of the limit are added at once and decided on the shared total, so the limit
 * itself is exact across instances.
 */
@Injectable()
export class RateLimiter implements OnApplicationShutdown {
  private readonly windows = new Map<string, WindowState>();
  private timer?: NodeJS.Timeout;

  constructor(private readonly store: RateLimitStore) {}

  /**
   * Counts one request of the key and decides it: synchronously when the decision is local (far
   * from the limit), as a promise when the shared total is asked.
   */
  consume(apiKeyId: string, limit: number): RateLimitDecision | Promise<RateLimitDecision> {
    const now = Date.now();
    const window = Math.floor(now / WINDOW_MS);
    let state = this.windows.get(apiKeyId);
    let fresh = false;
    if (!state || state.window !== window) {
      if (state && state.pending > 0) void this.flushOne(apiKeyId, state).catch(() => undefined);
      state = { window, shared: 0, pending: 0 };
      this.windows.set(apiKeyId, state);
      fresh = true;
    }
    const projected = state.shared + state.pending + 1;
    // The first request of a window learns the shared total; so does every one near the limit.
    if (fresh || limit - projected < Math.max(10, limit * 0.2)) {
      return this.consumeShared(apiKeyId, state, limit, now);
    }
    state.pending++;
    this.schedule();
    return decide(projected, limit, now);
  }

  /** Adds the request (and those counted locally) to the store and decides on the shared total. */
  private async consumeShared(
    apiKeyId: string,
    state: WindowState,
    limit: number,
    now: number,
  ): Promise<RateLimitDecision> {
    const delta = state.pending + 1;
    state.pending = 0;
    const total = await this.store.add(apiKeyId, state.window, delta);
    state.shared = Math.max(state.shared, total);
    return decide(total, limit, now);
  }

  purge(): Promise<void> {
    return this.store.purge();
  }

  /** Adds every locally counted request to the store. */
  async flush(): Promise<void> {
    await Promise.all([...this.windows.entries()].map(([key, state]) => this.flushOne(key, state)));
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    await this.flush().catch(() => undefined);
    await this.store.close();
  }

  private schedule(): void {
    if (this.timer) return;
    // The flush adds the counts of many requests: it runs in none of them.
    this.timer = RequestContext.outsideRequest(() =>
      setTimeout(() => {
        this.timer = undefined;
        void this.flush().catch(() => undefined);
      }, FLUSH_INTERVAL_MS),
    );
    this.timer.unref();
  }

  private async flushOne(apiKeyId: string, state: WindowState): Promise<void> {
    if (state.pending === 0) return;
    const delta = state.pending;
    state.pending = 0;
    try {
      const total = await this.store.add(apiKeyId, state.window, delta);
      state.shared = Math.max(state.shared, total);
    } catch (error) {
      state.pending += delta;
      throw error;
    }
  }
}
