import { Injectable } from '@nestjs/common';
import { notFound } from '#platform/errors/domain-error';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { ProductVariantRecord } from './product.entity';

@Injectable()
export class ProductVariantRepository extends TenantRepository<ProductVariantRecord> {
  constructor(tx: TransactionHost) {
    super(tx, ProductVariantRecord, 'product variant');
  }

  /** Variants of several products in one query, oldest first within each product. */
  async ofProducts(productIds: readonly string[]): Promise<Map<string, ProductVariantRecord[]>> {
    const byProduct = new Map<string, ProductVariantRecord[]>(productIds.map((id) => [id, []]));
    if (productIds.length === 0) return byProduct;
    const rows = await this.scopedQuery('v')
      .andWhere('v.product_id IN (:...ids)', { ids: [...new Set(productIds)] })
      .orderBy('v.id', 'ASC')
      .getMany();
    for (const row of rows) byProduct.get(row.productId)?.push(row);
    return byProduct;
  }

  async getOfProduct(productId: string, variantId: string): Promise<ProductVariantRecord> {
    const variant = await this.findById(variantId);
    if (!variant || variant.productId !== productId) throw notFound(this.resourceName, variantId);
    return variant;
  }
}
