import { Injectable } from '@nestjs/common';
import { AppConfig } from '#platform/config/app-config';
import { NotifiedCache } from '#platform/persistence/notified-cache';

/** Channel on which every API instance hears that an entity was frozen or unfrozen (payload: cache key). */
export const FREEZE_CHANNEL = 'entity_freeze_changed';

/**
 * The freeze state of each entity and mode (its freeze token, or null when not frozen), so the
 * mutation gate needs no query. A freeze or unfreeze announces the key in its transaction and
 * every instance forgets it at that commit (NotifiedCache).
 */
@Injectable()
export class FreezeStateCache extends NotifiedCache<string | null> {
  constructor(config: AppConfig) {
    super({ databaseUrl: config.DATABASE_URL, channel: FREEZE_CHANNEL, ttlMs: 60_000, maxEntries: 10_000 });
  }

  static key(entityId: string, livemode: boolean): string {
    return `${entityId}:${livemode}`;
  }
}
