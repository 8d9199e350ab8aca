import { Inject, Injectable } from '@nestjs/common';
import { ProductsService } from '../../catalog';
import { ReferenceListService, LOCATIONS_SERVICE } from '../../sales';
import { InventoryError, missingReference } from '../domain/inventory-error';

/** What a stock movement needs to know about its product. */
export interface StockedProduct {
  id: string;
  serialTracked: boolean;
  type: string;
}

/** Resolves the products (catalog) and locations (sales) a request names; a reference that does not resolve is 400 on its field. */
@Injectable()
export class StockReferences {
  constructor(
    private readonly products: ProductsService,
    @Inject(LOCATIONS_SERVICE) private readonly locations: ReferenceListService,
  ) {}

  async product(
    id: string,
    param: string,
    variantId?: string | null,
    variantParam = 'variant_id',
  ): Promise<StockedProduct> {
    const product = await this.products.stockFacts(id, variantId);
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
    if (!(await this.locations.exists(id))) throw missingReference(param, 'location', id);
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
