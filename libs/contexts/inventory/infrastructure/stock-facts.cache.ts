import { Injectable } from '@nestjs/common';
import type { ProductStockFacts } from '#contexts/catalog';
import { AppConfig } from '#platform/config/app-config';
import { NotifiedCache } from '#platform/persistence/notified-cache';
import { TransactionHost } from '#platform/persistence/transaction-host';
import type { PostalAddress } from '#platform/reference-lists/postal-address';

/** Channel of migration 1765457000000's triggers (payload: the entity id). */
export const STOCK_FACTS_CHANNEL = 'inventory_stock_facts';

/** A location as what prints it (a label's ship-from) names it. */
export interface LocationAddress {
  name: string;
  address: PostalAddress | null;
}

/**
 * One entity's facts: products by `product:variant`, existing locations, the time zone, and per
 * mode the location where order lines commit stock.
 */
export class EntityStockFacts {
  readonly products = new Map<string, ProductStockFacts>();
  readonly locations = new Set<string>();
  /** Existing locations' names and addresses by `livemode:id`. */
  readonly locationAddresses = new Map<string, LocationAddress>();
  readonly commitLocations = new Map<boolean, string>();
  timezone: string | undefined;
}

/**
 * What stock movements read of other contexts and of the entity, per entity and mode: a product's
 * type, serial tracking and variant, which locations exist, the entity's time zone, where order
 * lines commit stock. Only found facts are kept (a missing product or location is read again
 * each time). Any UPDATE or DELETE of a product, variant, location or entity row, a new
 * location, and any write of the inventory settings notify `inventory_stock_facts` at commit
 * (database triggers), and every instance forgets that entity's facts (NotifiedCache); without
 * a listening connection nothing is cached.
 */
@Injectable()
export class StockFactsCache extends NotifiedCache<EntityStockFacts> {
  constructor(
    config: AppConfig,
    private readonly tx: TransactionHost,
  ) {
    super({
      databaseUrl: config.DATABASE_URL,
      channel: STOCK_FACTS_CHANNEL,
      ttlMs: 60_000,
      maxEntries: 10_000,
    });
  }

  /** Forgets an entity's facts now, and on every instance at the commit of the open transaction. */
  forgetAtCommit(entityId: string): Promise<void> {
    return this.announce(this.tx.transactional, entityId);
  }

  /**
   * A fact of the entity, read with `load` when not cached and kept when found (`found`) and no
   * eviction happened while it was read.
   */
  async fact<T>(
    entityId: string,
    read: (facts: EntityStockFacts) => T | undefined,
    load: () => Promise<T>,
    keep: (facts: EntityStockFacts, value: T) => boolean,
  ): Promise<T> {
    const cached = this.get(entityId);
    if (cached) {
      const value = read(cached);
      if (value !== undefined) return value;
    }
    const startedAt = this.begin();
    const value = await load();
    if (startedAt !== this.begin()) return value;
    let facts = this.get(entityId);
    if (!facts) {
      facts = new EntityStockFacts();
      if (!keep(facts, value)) return value;
      this.set(entityId, facts, startedAt);
      return value;
    }
    keep(facts, value);
    return value;
  }
}
