import { Injectable } from '@nestjs/common';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { listFilters } from '#platform/persistence/list-filters';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { ProductRecord } from './product.entity';

export interface ProductListFilters {
  sku?: string;
  type?: string;
  status?: string;
  category_id?: string;
}

@Injectable()
export class ProductRepository extends TenantRepository.of(ProductRecord, 'product') {
  /** A page of products, filtered by SKU, type, status and category. */
  list(query: ListQueryDto & ProductListFilters, url: string) {
    return this.page(query, { url }, listFilters(query, { equal: ['sku', 'type', 'status', 'category_id'] }));
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

  /** Writes the demand_avg_per_day of several locked products with one UPDATE (see updateMany). */
  writeDemandAverages(records: readonly ProductRecord[]): Promise<void> {
    return this.updateMany(records, ['demandAvgPerDay']);
  }
}
