import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { NotifiedCache } from '../persistence/notified-cache';
import type { EntityProfile } from './entity-profile';

/** Channel of migration 1765470000000's triggers (payload: the entity id). */
export const ENTITY_PROFILES_CHANNEL = 'entity_profiles';

/**
 * Entity profiles by entity id, kept across requests. No route changes an entity's code, currency
 * or time zone, but a script may: any UPDATE or DELETE of an entity row notifies
 * `entity_profiles` at commit (database triggers), and every instance forgets that profile
 * (NotifiedCache); without a listening connection nothing is cached.
 */
@Injectable()
export class EntityProfileCache extends NotifiedCache<EntityProfile> {
  constructor(config: AppConfig) {
    super({
      databaseUrl: config.DATABASE_URL,
      channel: ENTITY_PROFILES_CHANNEL,
      ttlMs: 300_000,
      maxEntries: 10_000,
    });
  }
}
