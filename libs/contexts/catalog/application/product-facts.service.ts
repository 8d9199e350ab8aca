import { Injectable } from '@nestjs/common';
import { ProductRepository } from '../infrastructure/product.repository';
import type { ProductStatus, ProductType } from '../domain/product';
import { dimensionsOf, ProductResource, weightOf } from './product.presenter';

/** What other contexts need to know about a product to plan it. */
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

/** Read-only product facts for other contexts (replenishment, fulfillment): one query for any number of ids. */
@Injectable()
export class ProductFactsService {
  constructor(private readonly products: ProductRepository) {}

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
}
