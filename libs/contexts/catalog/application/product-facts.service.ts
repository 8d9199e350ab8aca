import { Injectable } from '@nestjs/common';
import { ProductRepository } from '../infrastructure/product.repository';
import { ProductVariantRepository } from '../infrastructure/product-variant.repository';
import type { ProductStatus, ProductType } from '../domain/product';
import { dimensionsOf, ProductResource, weightOf } from './product.presenter';

/** What other contexts need to know about a product to plan it (replenishment, fulfillment). */
export interface ProductFacts {
  id: string;
  sku: string;
  name: string;
  type: ProductType;
  status: ProductStatus;
  unitOfMeasure: string;
  currency: string;
  serialTracked: boolean;
  freightInsurance: boolean;
  weight: ProductResource['weight'];
  dimensions: ProductResource['dimensions'];
}

/** What a stock movement needs of a product (and of the variant it names): inventory caches it per entity. */
export interface ProductStockFacts {
  id: string;
  type: string;
  serialTracked: boolean;
  variantFound: boolean;
}

/** Read-only product facts for other contexts (replenishment, fulfillment, inventory). */
@Injectable()
export class ProductFactsService {
  constructor(
    private readonly products: ProductRepository,
    private readonly variants: ProductVariantRepository,
  ) {}

  /** Products of the caller's entity and mode by id; unknown ids are absent from the map. */
  async factsOf(ids: readonly string[]): Promise<Map<string, ProductFacts>> {
    const rows = await this.products.findByIds(ids);
    return new Map(
      rows.map((r) => [
        r.id,
        {
          id: r.id,
          sku: r.sku,
          name: r.name,
          type: r.type,
          status: r.status,
          unitOfMeasure: r.unitOfMeasure,
          currency: r.currency,
          serialTracked: r.serialTracked,
          freightInsurance: r.freightInsurance,
          weight: weightOf(r),
          dimensions: dimensionsOf(r),
        },
      ]),
    );
  }

  /** One product's facts, or null when it does not exist for this entity and mode. */
  async findFacts(id: string): Promise<ProductFacts | null> {
    return (await this.factsOf([id])).get(id) ?? null;
  }

  /**
   * A product's stock facts (its type and serial tracking, and whether the variant named is one of
   * its own), without the presented resource's variants and tags. Null when the product does not
   * exist; a variant that does not exist or belongs to another product is `variantFound: false`.
   */
  async stockFactsOf(productId: string, variantId?: string | null): Promise<ProductStockFacts | null> {
    const product = await this.products.findById(productId);
    if (!product) return null;
    const variant = variantId ? await this.variants.findById(variantId) : null;
    return {
      id: product.id,
      type: product.type,
      serialTracked: product.serialTracked,
      variantFound: variant !== null && variant.productId === product.id,
    };
  }
}
