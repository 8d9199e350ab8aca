import { Injectable } from '@nestjs/common';
import { notFound } from '../../../platform/errors/domain-error';
import { TenantRepository } from '../../../platform/persistence/tenant-repository';
import { TransactionHost } from '../../../platform/persistence/transaction-host';
import { ChannelListingRecord } from './channel-listing.entity';
import { ProductCategoryRecord } from './product-category.entity';
import { ProductRecord, ProductVariantRecord } from './product.entity';

@Injectable()
export class ProductRepository extends TenantRepository<ProductRecord> {
  constructor(tx: TransactionHost) {
    super(tx, ProductRecord, 'product');
  }

  /** Serializes writes of one SKU (across products and variants) until the transaction ends. */
  async lockSku(sku: string): Promise<void> {
    const { entityId, livemode } = this.scope();
    await this.tx.transactional.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [
      `sku:${entityId}:${livemode}:${sku}`,
    ]);
  }

  /** lockSku() for several SKUs in one statement, in sorted order so concurrent writers never deadlock. */
  async lockSkus(skus: readonly string[]): Promise<void> {
    if (skus.length === 0) return;
    const { entityId, livemode } = this.scope();
    const keys = [...new Set(skus)]
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
      .map((sku) => `sku:${entityId}:${livemode}:${sku}`);
    await this.tx.transactional.query(
      `SELECT count(pg_advisory_xact_lock(hashtextextended(k, 0))) FROM unnest($1::text[]) WITH ORDINALITY AS t(k, n)`,
      [keys],
    );
  }

  /** The SKUs among `skus` already held by a product or variant of this entity and mode (one query). */
  async takenSkus(skus: readonly string[]): Promise<Set<string>> {
    if (skus.length === 0) return new Set();
    const { entityId, livemode } = this.scope();
    const rows: { sku: string }[] = await this.tx.manager.query(
      `SELECT sku FROM products WHERE entity_id = $1 AND livemode = $2 AND sku = ANY($3)
       UNION
       SELECT sku FROM product_variants WHERE entity_id = $1 AND livemode = $2 AND sku = ANY($3)`,
      [entityId, livemode, [...new Set(skus)]],
    );
    return new Set(rows.map((r) => r.sku));
  }

  /** True when a product or variant other than `except` holds the SKU in this entity and mode. */
  async skuTaken(sku: string, except?: string): Promise<boolean> {
    const { entityId, livemode } = this.scope();
    const rows: unknown[] = await this.tx.manager.query(
      `SELECT 1 FROM products WHERE entity_id = $1 AND livemode = $2 AND sku = $3 AND id <> $4
       UNION ALL
       SELECT 1 FROM product_variants WHERE entity_id = $1 AND livemode = $2 AND sku = $3 AND id <> $4
       LIMIT 1`,
      [entityId, livemode, sku, except ?? '00000000-0000-0000-0000-000000000000'],
    );
    return rows.length > 0;
  }

  async countInCategory(categoryId: string): Promise<number> {
    return this.scopedQuery('p').andWhere('p.category_id = :categoryId', { categoryId }).getCount();
  }
}

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

@Injectable()
export class ProductCategoryRepository extends TenantRepository<ProductCategoryRecord> {
  constructor(tx: TransactionHost) {
    super(tx, ProductCategoryRecord, 'product category');
  }

  /** The chain of ancestors of a category, parent first, up to `limit` levels. */
  async ancestorsOf(id: string, limit: number): Promise<string[]> {
    const { entityId, livemode } = this.scope();
    const rows: { id: string }[] = await this.tx.manager.query(
      `WITH RECURSIVE chain(id, parent_id, depth) AS (
         SELECT id, parent_id, 0 FROM product_categories WHERE id = $1 AND entity_id = $2 AND livemode = $3
         UNION ALL
         SELECT c.id, c.parent_id, chain.depth + 1 FROM product_categories c
         JOIN chain ON c.id = chain.parent_id
         WHERE c.entity_id = $2 AND c.livemode = $3 AND chain.depth < $4
       )
       SELECT id FROM chain WHERE depth > 0 ORDER BY depth`,
      [id, entityId, livemode, limit],
    );
    return rows.map((r) => r.id);
  }

  async countChildren(id: string): Promise<number> {
    return this.scopedQuery('c').andWhere('c.parent_id = :id', { id }).getCount();
  }
}

@Injectable()
export class ChannelListingRepository extends TenantRepository<ChannelListingRecord> {
  constructor(tx: TransactionHost) {
    super(tx, ChannelListingRecord, 'channel listing');
  }

  async findForProductChannel(productId: string, channel: string): Promise<ChannelListingRecord | null> {
    return this.scopedQuery('l')
      .andWhere('l.product_id = :productId AND l.channel = :channel', { productId, channel })
      .getOne();
  }
}
