import { Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { Client } from 'pg';
import { EntityManager } from 'typeorm';

export interface NotifiedCacheOptions {
  /** The database whose notifications invalidate the cache (no URL: the cache stays off). */
  databaseUrl: string | undefined;
  /** The NOTIFY channel; the payload is the key to forget, or `*` for all. */
  channel: string;
  ttlMs: number;
  maxEntries: number;
  /** Where entry lifetimes read the time (Date.now by default; tests move an injected Clock). */
  now?: () => number;
}

/**
 * Values read from PostgreSQL, kept in memory and forgotten on every API instance when they
 * change: the changing transaction sends NOTIFY, which PostgreSQL delivers at commit, and each
 * instance's listener evicts the key (the changing instance evicts it at once). While the
 * listener is not connected the cache is bypassed, so a missed notification can never keep a
 * stale value alive. A read that began before an eviction does not cache what it read.
 */
export abstract class NotifiedCache<V> implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(this.constructor.name);
  private readonly entries = new Map<string, { value: V; at: number }>();
  private listener?: Client;
  private listening = false;
  /** Bumped by every eviction; a lookup that began before one must not cache what it read. */
  private epoch = 0;
  private stopped = false;

  private readonly now: () => number;

  protected constructor(private readonly options: NotifiedCacheOptions) {
    this.now = options.now ?? Date.now;
  }

  async onModuleInit(): Promise<void> {
    await this.listen();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    this.listening = false;
    await this.listener?.end().catch(() => undefined);
  }

  /** The cached value, or undefined when it must be read from the database. */
  get(key: string): V | undefined {
    if (!this.listening) return undefined;
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (this.now() - entry.at > this.options.ttlMs) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /** Marks the start of a database read; pass the result to set(). */
  begin(): number {
    return this.epoch;
  }

  set(key: string, value: V, startedAt: number): void {
    if (!this.listening || startedAt !== this.epoch) return;
    if (this.entries.size >= this.options.maxEntries) this.entries.clear();
    this.entries.set(key, { value, at: this.now() });
  }

  /** Tells every instance (this one included) to forget a key, at the commit of `manager`'s transaction. */
  async announce(manager: EntityManager, key: string | '*'): Promise<void> {
    this.evict(key);
    await manager.query('SELECT pg_notify($1, $2)', [this.options.channel, key]);
  }

  private evict(key: string): void {
    this.epoch++;
    if (key === '*') this.entries.clear();
    else this.entries.delete(key);
  }

  private async listen(): Promise<void> {
    if (this.stopped || !this.options.databaseUrl) return;
    const client = new Client({ connectionString: this.options.databaseUrl });
    client.on('notification', (message) => this.evict(message.payload ?? '*'));
    client.on('error', () => this.reconnect(client));
    client.on('end', () => this.reconnect(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${this.options.channel}`);
      this.listener = client;
      this.entries.clear();
      this.epoch++;
      this.listening = true;
    } catch (error) {
      this.logger.warn(`Cache disabled until the listener connects: ${String(error)}`);
      this.reconnect(client);
    }
  }

  private reconnect(client: Client): void {
    if (this.listener !== undefined && this.listener !== client) return;
    this.listening = false;
    this.entries.clear();
    this.listener = undefined;
    client.removeAllListeners();
    client.end().catch(() => undefined);
    if (!this.stopped) setTimeout(() => void this.listen(), 1000).unref();
  }
}
