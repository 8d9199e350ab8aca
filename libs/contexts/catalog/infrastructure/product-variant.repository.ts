import { Injectable } from '@nestjs/common';
import { notFound } from '#platform/errors/domain-error';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { ProductVariantRecord } from './product.entity';

@Injectable()
export class ProductVariantRepository extends TenantRepository.of(ProductVariantRecord, 'product variant') {
  /** Variants of several products in one query, oldest first within each product. */
  ofProducts(productIds: readonly string[]): Promise<Map<string, ProductVariantRecord[]>> {
    return this.groupedBy('productId', 'product_id', productIds);
  }

  async getOfProduct(productId: string, variantId: string): Promise<ProductVariantRecord> {
    const variant = await this.findById(variantId);
    if (!variant || variant.productId !== productId) throw notFound(this.resourceName, variantId);
    return variant;
  }
}
