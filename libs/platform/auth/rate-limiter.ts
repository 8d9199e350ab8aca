import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { isOutageError } from '../errors/outage';
import { rawPool } from '../persistence/raw-pool';
import { Clock, SYSTEM_CLOCK } from '../time/clock';

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
}

export const WINDOW_MS = 60_000;

/** The decision for the request counted `count`-th in the window that contains `now`. */
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
  /**
   * Adds `delta` to the counter's total in `window` and returns the new total, atomically: two
   * calls never see the same total, whichever instances make them.
   */
  abstract add(counterId: string, window: number, delta: number): Promise<number>;
  /** Drops counters of windows that ended before `before` (ms since the epoch). */
  abstract purge(before: number): Promise<void>;
  async close(): Promise<void> {}
}

/** Counts in an unlogged PostgreSQL table (the default when no Redis is configured). */
export class PostgresRateLimitStore extends RateLimitStore {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async add(counterId: string, window: number, delta: number): Promise<number> {
    // One statement: the row lock of the upsert orders concurrent additions, each sees its own total.
    const { rows } = await rawPool(this.dataSource).query<{ count: number }>(
      `INSERT INTO rate_limit_windows (api_key_id, window_start, count) VALUES ($1, $2, $3)
       ON CONFLICT (api_key_id, window_start) DO UPDATE SET count = rate_limit_windows.count + EXCLUDED.count
       RETURNING count`,
      [counterId, new Date(window * WINDOW_MS), delta],
    );
    return rows[0].count;
  }

  async purge(before: number): Promise<void> {
    await rawPool(this.dataSource).query(`DELETE FROM rate_limit_windows WHERE window_start < $1`, [
      new Date(before - WINDOW_MS),
    ]);
  }
}

/** INCRBY, and an expiry set by the addition that created the counter, as one atomic script. */
const ADD_SCRIPT = `
local total = redis.call('INCRBY', KEYS[1], ARGV[1])
if total == tonumber(ARGV[1]) then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return total`;

type ScriptedRedis = Redis & {
  rateLimitAdd(key: string, delta: number, ttlMs: number): Promise<number>;
};

/** How long a counter addition may take before Redis counts as unreachable. */
export const REDIS_COMMAND_TIMEOUT_MS = 500;
/** The longest pause between two reconnection attempts to Redis. */
export const REDIS_RECONNECT_MAX_MS = 500;

/** Counts in Redis when REDIS_URL is set. */
export class RedisRateLimitStore extends RateLimitStore {
  private readonly redis: ScriptedRedis;

  constructor(
    url: string,
    private readonly prefix: string,
  ) {
    super();
    this.redis = new Redis(url, {
      // While Redis is away a command fails at once (the limiter then counts locally, see
      // ResilientRateLimitStore) instead of waiting in ioredis' offline queue for a reconnection.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
      connectTimeout: 1000,
      // Reconnect at least every REDIS_RECONNECT_MAX_MS, so the shared count resumes soon after Redis is back.
      retryStrategy: (times) => Math.min(times * 100, REDIS_RECONNECT_MAX_MS),
    }) as ScriptedRedis;
    // Connection errors are expected during an outage; the limiter reports the outage itself.
    this.redis.on('error', () => undefined);
    // ioredis sends EVALSHA, and the script itself once when Redis does not know it yet.
    this.redis.defineCommand('rateLimitAdd', { numberOfKeys: 1, lua: ADD_SCRIPT });
  }

  async add(counterId: string, window: number, delta: number): Promise<number> {
    return Number(
      await this.redis.rateLimitAdd(`${this.prefix}:rl:${counterId}:${window}`, delta, WINDOW_MS * 2),
    );
  }

  async purge(): Promise<void> {
    // Redis expires the counters itself.
  }

  override async close(): Promise<void> {
    // quit() needs a connection; a client still reconnecting is disconnected instead.
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

/** A counter this instance keeps by itself while the shared store does not answer. */
interface LocalCounter {
  window: number;
  /** The counter's total as this instance knows it (the store's last answer plus local additions). */
  total: number;
  /** Additions made locally that the store has not been told about yet. */
  unsynced: number;
}

/** How long after a failed addition the store is asked again (one addition, the others count locally). */
export const STORE_RETRY_MS = 500;

/**
 * The shared store, or this instance's own counters while the store does not answer. An
 * addition that fails because the store is unreachable (a lost or refused connection, a
 * timeout) is counted locally instead: from the total the store last answered for that counter
 * in that window, or from 0, so each instance keeps applying the same budget by itself (a key
 * can then spend up to its budget on each instance, never more, and never without a limit).
 * While the store is down only one addition every STORE_RETRY_MS goes to it; the first that
 * succeeds carries the additions counted locally meanwhile, so the shared total includes them
 * and the store is used again from then on. Errors other than outages are not hidden.
 */
export class ResilientRateLimitStore extends RateLimitStore {
  private readonly logger = new Logger('RateLimiter');
  private readonly local = new Map<string, LocalCounter>();
  /** While the store is unreachable: when it may next be asked (ms, system time). */
  private retryAt: number | undefined;
  private probing = false;

  constructor(
    private readonly inner: RateLimitStore,
    private readonly now: () => number = Date.now,
  ) {
    super();
  }

  /** Whether additions are currently counted locally because the store does not answer. */
  get degraded(): boolean {
    return this.retryAt !== undefined;
  }

  async add(counterId: string, window: number, delta: number): Promise<number> {
    if (this.retryAt !== undefined && (this.probing || this.now() < this.retryAt)) {
      return this.addLocally(counterId, window, delta);
    }
    const probe = this.retryAt !== undefined;
    if (probe) this.probing = true;
    // The additions counted locally go with this one (taken now, so no concurrent addition sends them too).
    const counter = this.local.get(counterId);
    const carried = counter?.window === window ? counter.unsynced : 0;
    if (carried > 0) counter!.unsynced = 0;
    try {
      const total = await this.inner.add(counterId, window, delta + carried);
      this.remember(counterId, window, total);
      if (this.retryAt !== undefined) {
        this.retryAt = undefined;
        this.logger.log('Rate-limit store answers again: counting in the shared store.');
      }
      return total;
    } catch (error) {
      if (!isOutageError(error)) throw error;
      if (this.retryAt === undefined) {
        this.logger.warn(
          `Rate-limit store unreachable (${(error as Error).message}): each instance applies the budgets by itself until it answers.`,
        );
      }
      this.retryAt = this.now() + STORE_RETRY_MS;
      if (carried > 0 && counter!.window === window) counter!.unsynced += carried;
      return this.addLocally(counterId, window, delta);
    } finally {
      if (probe) this.probing = false;
    }
  }

  /** Notes the store's total for a counter; local counts from there if the store goes away. */
  private remember(counterId: string, window: number, total: number): void {
    const known = this.local.get(counterId);
    if (known === undefined && this.local.size >= 10_000) this.local.clear();
    this.local.set(counterId, { window, total, unsynced: known?.window === window ? known.unsynced : 0 });
  }

  private addLocally(counterId: string, window: number, delta: number): number {
    let counter = this.local.get(counterId);
    if (counter === undefined || counter.window !== window) {
      if (this.local.size >= 10_000) this.local.clear();
      counter = { window, total: 0, unsynced: 0 };
      this.local.set(counterId, counter);
    }
    counter.total += delta;
    counter.unsynced += delta;
    return counter.total;
  }

  async purge(before: number): Promise<void> {
    if (this.retryAt === undefined) await this.inner.purge(before);
  }

  override close(): Promise<void> {
    return this.inner.close();
  }
}

interface Waiter {
  limit: number;
  now: number;
  resolve: (decision: RateLimitDecision) => void;
  reject: (error: unknown) => void;
}

/** The requests of one key and window that wait for the store, and whether an addition is out. */
interface Lane {
  key: string;
  window: number;
  busy: boolean;
  waiting: Waiter[];
}

/**
 * A fixed one-minute window per key, counted in the store every API instance shares. Every
 * request is counted there before it is decided: the store adds atomically and answers the new
 * total, so the n-th request of a window anywhere is decided as the n-th, and at most `limit`
 * requests pass in a window however many arrive at once on however many instances.
 *
 * To keep that cheap under load, an instance has at most one addition per key in flight: the
 * requests that arrive meanwhile wait for it and are then added together (INCRBY n). An addition
 * of n that answers total T reserved the counts T-n+1..T for exactly those requests, so the
 * decision stays exact. Once a key is over its limit in a window, this instance refuses its
 * further requests in that window without asking (the total only grows until the window ends).
 */
@Injectable()
export class RateLimiter implements OnApplicationShutdown {
  private readonly lanes = new Map<string, Lane>();
  /** Keys over their limit → the window in which they are, and that limit. */
  private readonly exhausted = new Map<string, { window: number; limit: number }>();

  constructor(
    private readonly store: RateLimitStore,
    private readonly clock: Clock = SYSTEM_CLOCK,
  ) {}

  /**
   * Counts one request of the key and decides it: at once when this instance already knows the
   * key is over its limit in this window, otherwise once the store has counted it.
   */
  consume(apiKeyId: string, limit: number): RateLimitDecision | Promise<RateLimitDecision> {
    const now = this.clock.now();
    const window = Math.floor(now / WINDOW_MS);
    const over = this.exhausted.get(apiKeyId);
    if (over !== undefined) {
      // A limit raised since then is asked about again.
      if (over.window === window && limit <= over.limit) return decide(limit + 1, limit, now);
      this.exhausted.delete(apiKeyId);
    }
    const laneId = `${apiKeyId}:${window}`;
    let lane = this.lanes.get(laneId);
    if (!lane) {
      lane = { key: apiKeyId, window, busy: false, waiting: [] };
      this.lanes.set(laneId, lane);
    }
    const current = lane;
    const decision = new Promise<RateLimitDecision>((resolve, reject) =>
      current.waiting.push({ limit, now, resolve, reject }),
    );
    if (!current.busy) void this.drain(laneId, current);
    return decision;
  }

  /** Adds the lane's waiting requests to the store, one addition at a time, until none wait. */
  private async drain(laneId: string, lane: Lane): Promise<void> {
    lane.busy = true;
    while (lane.waiting.length > 0) {
      const batch = lane.waiting.splice(0);
      let total: number;
      try {
        total = await this.store.add(lane.key, lane.window, batch.length);
      } catch (error) {
        for (const waiter of batch) waiter.reject(error);
        continue;
      }
      const first = total - batch.length + 1;
      batch.forEach((waiter, i) => waiter.resolve(decide(first + i, waiter.limit, waiter.now)));
      const last = batch[batch.length - 1];
      if (total > last.limit) {
        if (this.exhausted.size >= 10_000) this.exhausted.clear();
        this.exhausted.set(lane.key, { window: lane.window, limit: last.limit });
      }
    }
    lane.busy = false;
    this.lanes.delete(laneId);
  }

  /** Drops the store's counters of past windows. */
  purge(): Promise<void> {
    return this.store.purge(this.clock.now());
  }

  async onApplicationShutdown(): Promise<void> {
    await this.store.close();
  }
}
