import { Inject, Injectable } from '@nestjs/common';
import { RequestContext } from '#platform/tenancy/request-context';
import { ProductFactsService } from '#contexts/catalog';
import { ReferenceListService } from '#platform/reference-lists/reference-list.service';
import { InventoryError, missingReference } from '../domain/inventory-error';
import { InventorySettingsRepository } from '../infrastructure/inventory-settings.repository';
import { LocationAddress, StockFactsCache } from '../infrastructure/stock-facts.cache';
import { LOCATIONS_SERVICE } from './locations';

/** What a stock movement needs to know about its product. */
export interface StockedProduct {
  id: string;
  serialTracked: boolean;
  type: string;
}

/**
 * Resolves the products (catalog) and locations a request names; a reference that does not
 * resolve is 400 on its field. What resolved is kept in the StockFactsCache until the entity's
 * products, variants or locations change.
 */
@Injectable()
export class StockReferences {
  constructor(
    private readonly products: ProductFactsService,
    @Inject(LOCATIONS_SERVICE) private readonly locations: ReferenceListService,
    private readonly cache: StockFactsCache,
    private readonly settings: InventorySettingsRepository,
  ) {}

  /**
   * Where order lines commit stock (and packages ship from unless they name a location): the
   * settings' default location, else the entity's oldest location; null without any location.
   */
  async commitLocation(): Promise<string | null> {
    const { entityId, livemode } = RequestContext.caller();
    return this.cache.fact(
      entityId,
      (facts) => facts.commitLocations.get(livemode),
      async () => (await this.settings.current()).defaultLocationId ?? (await this.firstLocationId()),
      (facts, found) => (found ? facts.commitLocations.set(livemode, found) && true : false),
    );
  }

  /** Forgets the caller's entity's facts at once, and on every instance at the commit of the open transaction. */
  forgetEntity(): Promise<void> {
    return this.cache.forgetAtCommit(RequestContext.caller().entityId);
  }

  async product(
    id: string,
    param: string,
    variantId?: string | null,
    variantParam = 'variant_id',
  ): Promise<StockedProduct> {
    const { entityId, livemode } = RequestContext.caller();
    const key = `${livemode}:${id}:${variantId ?? ''}`;
    const product = await this.cache.fact(
      entityId,
      (facts) => facts.products.get(key),
      () => this.products.stockFactsOf(id, variantId),
      (facts, found) => (found ? facts.products.set(key, found) && true : false),
    );
    if (!product) throw missingReference(param, 'product', id);
    if (product.type === 'service') {
      throw new InventoryError('parameter_invalid', {
        param,
        hint: `Product '${id}' is a service: it holds no stock.`,
      });
    }
    if (variantId && !product.variantFound) {
      throw missingReference(variantParam, 'variant of this product', variantId);
    }
    return { id: product.id, serialTracked: product.serialTracked, type: product.type };
  }

  async location(id: string, param: string): Promise<void> {
    const { entityId, livemode } = RequestContext.caller();
    const key = `${livemode}:${id}`;
    const exists = await this.cache.fact(
      entityId,
      (facts) => (facts.locations.has(key) ? true : undefined),
      () => this.locations.exists(id),
      (facts, found) => (found ? facts.locations.add(key) && true : false),
    );
    if (!exists) throw missingReference(param, 'location', id);
  }

  /** A location's name and address, or null when the entity and mode have none with this id. */
  async locationAddress(id: string): Promise<LocationAddress | null> {
    const { entityId, livemode } = RequestContext.caller();
    const key = `${livemode}:${id}`;
    return this.cache.fact(
      entityId,
      (facts) => facts.locationAddresses.get(key),
      async (): Promise<LocationAddress | null> => {
        const location = (await this.locations.load([id])).get(id);
        if (!location) return null;
        return {
          name: String(location.name),
          address: (location.address as LocationAddress['address'] | undefined) ?? null,
        };
      },
      (facts, found) => (found ? facts.locationAddresses.set(key, found) && true : false),
    );
  }

  /** The entity's first location (the oldest), or null without any. */
  async firstLocationId(): Promise<string | null> {
    // Newest-first list read backwards from the smallest id: its first record is the oldest.
    const page = await this.locations.list(
      { limit: 1, ending_before: '00000000-0000-0000-0000-000000000000' },
      '',
    );
    return page.data[0]?.id ?? null;
  }
}
