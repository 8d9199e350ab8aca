import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { NotifiedCache } from '../persistence/notified-cache';
import type { AuthenticatedKey } from './api-key.service';

/** Channel on which every API instance hears that keys changed (payload: key hash, or `*`). */
export const API_KEY_CHANNEL = 'api_key_changed';

/**
 * Keys found by hash, kept in memory so a request needs no lookup query. Revocation stays
 * immediate on every instance: the revoking transaction announces the key's hash and each
 * instance forgets it at that commit (NotifiedCache).
 */
@Injectable()
export class ApiKeyCache extends NotifiedCache<AuthenticatedKey> {
  constructor(config: AppConfig) {
    super({ databaseUrl: config.DATABASE_URL, channel: API_KEY_CHANNEL, ttlMs: 60_000, maxEntries: 10_000 });
  }
}
