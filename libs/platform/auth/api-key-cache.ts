import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { NotifiedCache } from '../persistence/notified-cache';
import { Clock } from '../time/clock';
import type { AuthenticatedKey } from './authenticated-key';

/** Channel on which every API instance hears that keys changed (payload: key hash, or `*`). */
export const API_KEY_CHANNEL = 'api_key_changed';

/**
 * Keys found by hash, kept in memory so a request needs no lookup query. Revocation stays
 * immediate on every instance: the revoking transaction announces the key's hash and each
 * instance forgets it at that commit (NotifiedCache).
 */
@Injectable()
export class ApiKeyCache extends NotifiedCache<AuthenticatedKey> {
  /** Hashes looked up and not found → when that answer expires (AUTH_NEGATIVE_CACHE_MS). */
  private readonly unknown = new Map<string, number>();
  private readonly negativeTtlMs: number;

  constructor(
    config: AppConfig,
    private readonly clock: Clock,
  ) {
    super({
      databaseUrl: config.DATABASE_URL,
      channel: API_KEY_CHANNEL,
      ttlMs: 60_000,
      maxEntries: 10_000,
      now: () => clock.now(),
    });
    this.negativeTtlMs = config.AUTH_NEGATIVE_CACHE_MS;
  }

  /**
   * True while a lookup of this hash recently found nothing: a flood of unknown keys is not a
   * flood of lookups. Safe without invalidation: a new key's hash is of fresh random bytes,
   * which nobody can have tried before it existed.
   */
  isKnownUnknown(hash: string): boolean {
    const until = this.unknown.get(hash);
    if (until === undefined) return false;
    if (until > this.clock.now()) return true;
    this.unknown.delete(hash);
    return false;
  }

  rememberUnknown(hash: string): void {
    if (this.negativeTtlMs === 0) return;
    if (this.unknown.size >= 50_000) this.unknown.clear();
    this.unknown.set(hash, this.clock.now() + this.negativeTtlMs);
  }
}
