import { Injectable, OnModuleDestroy } from '@nestjs/common';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { rawPool } from '../persistence/raw-pool';

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
}

const WINDOW_MS = 60_000;

function decide(count: number, limit: number, now: number): RateLimitDecision {
  const windowEnd = Math.floor(now / WINDOW_MS) * WINDOW_MS + WINDOW_MS;
  return {
    allowed: count <= limit,
    limit,
    remaining: Math.max(0, limit - count),
    resetSeconds: Math.max(1, Math.ceil((windowEnd - now) / 1000)),
  };
}

/**
 * A fixed one-minute window per key, counted in a store every API instance shares, so
 * several instances spend one budget.
 */
export abstract class RateLimiter {
  abstract consume(apiKeyId: string, limit: number): Promise<RateLimitDecision>;
  /** Drops counters of past windows. */
  abstract purge(): Promise<void>;
}

/** Counts in an unlogged PostgreSQL table (the default when no Redis is configured). */
@Injectable()
export class PostgresRateLimiter extends RateLimiter {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async consume(apiKeyId: string, limit: number): Promise<RateLimitDecision> {
    const now = Date.now();
    const windowStart = new Date(Math.floor(now / WINDOW_MS) * WINDOW_MS);
    const { rows } = await rawPool(this.dataSource).query<{ count: number }>(
      `INSERT INTO rate_limit_windows (api_key_id, window_start, count) VALUES ($1, $2, 1)
       ON CONFLICT (api_key_id, window_start) DO UPDATE SET count = rate_limit_windows.count + 1
       RETURNING count`,
      [apiKeyId, windowStart],
    );
    return decide(rows[0].count, limit, now);
  }

  async purge(): Promise<void> {
    await this.dataSource.query(`DELETE FROM rate_limit_windows WHERE window_start < now() - interval '2 minutes'`);
  }
}

/** Counts in Redis when REDIS_URL is set. */
export class RedisRateLimiter extends RateLimiter implements OnModuleDestroy {
  private readonly redis: Redis;

  constructor(url: string, private readonly prefix: string) {
    super();
    this.redis = new Redis(url, { maxRetriesPerRequest: 2, lazyConnect: false });
  }

  async consume(apiKeyId: string, limit: number): Promise<RateLimitDecision> {
    const now = Date.now();
    const key = `${this.prefix}:rl:${apiKeyId}:${Math.floor(now / WINDOW_MS)}`;
    const result = await this.redis.multi().incr(key).pexpire(key, WINDOW_MS * 2).exec();
    const count = Number(result?.[0]?.[1] ?? 1);
    return decide(count, limit, now);
  }

  async purge(): Promise<void> {
    // Redis expires the counters itself.
  }

  async onModuleDestroy(): Promise<void> {
    await this.redis.quit().catch(() => undefined);
  }
}
