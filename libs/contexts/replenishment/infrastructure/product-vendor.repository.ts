import { Injectable } from '@nestjs/common';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { notFound } from '#platform/errors/domain-error';
import { isUuid } from '#platform/persistence/ids';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { ProductVendorRecord } from './product-vendor.entity';

@Injectable()
export class ProductVendorRepository extends TenantRepository.of(ProductVendorRecord, 'product vendor') {
  /** A page of the vendors of one product. */
  listOfProduct(productId: string, query: ListQueryDto) {
    return this.page(query, { url: '' }, (qb) => qb.andWhere('r.product_id = :productId', { productId }));
  }

  /** Whether the product has a vendor yet. */
  async productHasVendor(productId: string): Promise<boolean> {
    return (await this.listOfProduct(productId, { limit: 1 })).rows.length > 0;
  }

  /** The vendor row of a product, or the contract's 404 (also when it belongs to another product). */
  async getOfProduct(productId: string, id: string, lock = false): Promise<ProductVendorRecord> {
    if (!isUuid(id)) throw notFound('product vendor', id);
    const qb = this.scopedQuery('r').andWhere('r.id = :id AND r.product_id = :productId', { id, productId });
    if (lock) qb.setLock('pessimistic_write');
    const found = await qb.getOne();
    if (!found) throw notFound('product vendor', id);
    return found;
  }

  async findByAccount(productId: string, vendorAccountId: string): Promise<ProductVendorRecord | null> {
    return this.findOneWhere({ productId, vendorAccountId });
  }

  /** Clears the preferred flag of the product's other vendor rows (one preferred per product). */
  async clearPreferred(productId: string, exceptId: string | null): Promise<void> {
    const { entityId, livemode } = this.scope();
    await this.tx.transactional.query(
      `UPDATE product_vendors SET is_preferred = false, updated_at = now(), version = version + 1
        WHERE entity_id = $1 AND livemode = $2 AND product_id = $3 AND is_preferred AND id <> $4`,
      [entityId, livemode, productId, exceptId ?? '00000000-0000-0000-0000-000000000000'],
    );
  }

  /** Products that the vendor account supplies. */
  async productsOfAccount(vendorAccountId: string): Promise<string[]> {
    if (!isUuid(vendorAccountId)) return [];
    const rows = await this.scopedQuery('r')
      .select('DISTINCT r.product_id', 'product_id')
      .andWhere('r.vendor_account_id = :vendorAccountId', { vendorAccountId })
      .getRawMany<{ product_id: string }>();
    return rows.map((r) => r.product_id);
  }

  /**
   * The vendor row a product is planned with: the given vendor account's when one is given,
   * otherwise the preferred one (products without a preferred vendor are absent).
   */
  async forProducts(
    productIds: readonly string[],
    vendorAccountId?: string,
  ): Promise<Map<string, ProductVendorRecord>> {
    if (productIds.length === 0) return new Map();
    const ids = [...new Set(productIds)];
    const rows = vendorAccountId
      ? await this.plainRows('product_id = ANY($3) AND vendor_account_id = $4', [ids, vendorAccountId])
      : await this.plainRows('product_id = ANY($3) AND is_preferred', [ids]);
    return new Map(rows.map((v) => [v.productId, v]));
  }

  /** Serializes changes to one product's vendor list until the transaction ends. */
  async lockProduct(productId: string): Promise<void> {
    const { entityId, livemode } = this.scope();
    await this.tx.transactional.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [
      `product_vendors:${entityId}:${livemode}:${productId}`,
    ]);
  }
}
