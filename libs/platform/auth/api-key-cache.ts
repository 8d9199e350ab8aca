import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { Client } from 'pg';
import { EntityManager } from 'typeorm';
import { AppConfig } from '../config/app-config';
import type { AuthenticatedKey } from './api-key.service';

/** Channel on which every API instance hears that keys changed (payload: key hash, or `*`). */
export const API_KEY_CHANNEL = 'api_key_changed';
const TTL_MS = 60_000;
const MAX_ENTRIES = 10_000;

/**
 * Keys found by hash, kept in memory so a request needs no lookup query. Revocation stays
 * immediate on every instance: the revoking transaction sends NOTIFY, which PostgreSQL
 * delivers at commit, and each instance's listener evicts the key. While the listener is not
 * connected the cache is bypassed, so a missed notification can never keep a revoked key alive.
 */
@Injectable()
export class ApiKeyCache implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(ApiKeyCache.name);
  private readonly entries = new Map<string, { value: AuthenticatedKey; at: number }>();
  private listener?: Client;
  private listening = false;
  /** Bumped by every eviction; a lookup that began before one must not cache what it read. */
  private epoch = 0;
  private stopped = false;

  constructor(private readonly config: AppConfig) {}

  async onModuleInit(): Promise<void> {
    await this.listen();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    this.listening = false;
    await this.listener?.end().catch(() => undefined);
  }

  get(hash: string): AuthenticatedKey | undefined {
    if (!this.listening) return undefined;
    const entry = this.entries.get(hash);
    if (!entry) return undefined;
    if (Date.now() - entry.at > TTL_MS) {
      this.entries.delete(hash);
      return undefined;
    }
    return entry.value;
  }

  /** Marks the start of a database lookup; pass the result to set(). */
  begin(): number {
    return this.epoch;
  }

  set(hash: string, value: AuthenticatedKey, startedAt: number): void {
    if (!this.listening || startedAt !== this.epoch) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(hash, { value, at: Date.now() });
  }

  /** Tells every instance (this one included) to forget a key, at the commit of `manager`'s transaction. */
  async announce(manager: EntityManager, hash: string | '*'): Promise<void> {
    this.evict(hash);
    await manager.query('SELECT pg_notify($1, $2)', [API_KEY_CHANNEL, hash]);
  }

  private evict(hash: string): void {
    this.epoch++;
    if (hash === '*') this.entries.clear();
    else this.entries.delete(hash);
  }

  private async listen(): Promise<void> {
    if (this.stopped || !this.config.DATABASE_URL) return;
    const client = new Client({ connectionString: this.config.DATABASE_URL });
    client.on('notification', (message) => this.evict(message.payload ?? '*'));
    client.on('error', () => this.reconnect(client));
    client.on('end', () => this.reconnect(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${API_KEY_CHANNEL}`);
      this.listener = client;
      this.entries.clear();
      this.epoch++;
      this.listening = true;
    } catch (error) {
      this.logger.warn(`API key cache disabled until the listener connects: ${String(error)}`);
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
