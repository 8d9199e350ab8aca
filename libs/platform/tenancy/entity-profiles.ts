import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { BusinessEntityRecord } from '../auth/business-entity.entity';
import { TransactionHost } from '../persistence/transaction-host';
import type { EntityProfile } from './entity-profile';
import { EntityProfileCache } from './entity-profile.cache';
import { RequestContext } from './request-context';

export type { EntityProfile };

const toProfile = (e: BusinessEntityRecord): EntityProfile => ({
  id: e.id,
  code: e.code,
  baseCurrency: e.baseCurrency,
  timezone: e.timezone,
});

/**
 * The platform's port for an entity's profile: the one way a context reads "the entity's base
 * currency" or "its time zone" (the platform owns the `entities` table; no context reads it).
 * Reads go through the caller's transaction when there is one. A request or job reads each
 * entity's profile once: no route changes an entity's code, currency or time zone, so the
 * profile read first holds for the rest of the request (a package that ships asks for the time
 * zone from four places). Across requests profiles are kept in the EntityProfileCache, which
 * forgets one when its entity row changes.
 */
@Injectable()
export class EntityProfiles {
  constructor(
    private readonly tx: TransactionHost,
    private readonly cache: EntityProfileCache,
  ) {}

  /** The calling entity's profile, or null when its row is gone. */
  async current(): Promise<EntityProfile | null> {
    return this.find(RequestContext.caller().entityId);
  }

  async find(entityId: string): Promise<EntityProfile | null> {
    const state = RequestContext.state();
    const known = state?.entityProfiles?.get(entityId);
    if (known) return known;
    const cached = this.cache.get(entityId);
    if (cached) {
      // Held for the rest of the request, whatever the cache forgets meanwhile.
      if (state) (state.entityProfiles ??= new Map()).set(entityId, cached);
      return cached;
    }
    const startedAt = this.cache.begin();
    const entity = await this.tx.manager.getRepository(BusinessEntityRecord).findOneBy({ id: entityId });
    if (!entity) return null;
    const profile = toProfile(entity);
    if (state) (state.entityProfiles ??= new Map()).set(entityId, profile);
    this.cache.set(entityId, profile, startedAt);
    return profile;
  }

  /** Profiles of several entities in one read, by id. */
  async findMany(entityIds: readonly string[]): Promise<Map<string, EntityProfile>> {
    if (entityIds.length === 0) return new Map();
    const rows = await this.tx.manager
      .getRepository(BusinessEntityRecord)
      .findBy({ id: In([...new Set(entityIds)]) });
    return new Map(rows.map((e) => [e.id, toProfile(e)]));
  }
}
