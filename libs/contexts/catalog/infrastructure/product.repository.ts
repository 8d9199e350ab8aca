import { Injectable } from '@nestjs/common';
import { notFound } from '#platform/errors/domain-error';
import { isUuid } from '#platform/persistence/ids';
import { moneyTransformer } from '#platform/persistence/money';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { ProductRecord } from './product.entity';

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

  /**
   * getForUpdate() for several products in one statement: the caller's products of `ids`, locked
   * in id order (so concurrent writers never deadlock) and returned in that order; the contract's
   * 404 for the first id (in that order) that is not one of them.
   */
  async getManyForUpdate(ids: readonly string[]): Promise<ProductRecord[]> {
    const sorted = [...new Set(ids)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    if (sorted.length === 0) return [];
    const invalid = sorted.find((id) => !isUuid(id));
    if (invalid) throw notFound(this.resourceName, invalid);
    const found = await this.scopedQuery('r')
      .andWhere('r.id IN (:...ids)', { ids: sorted })
      .orderBy('r.id', 'ASC')
      .setLock('pessimistic_write')
      .getMany();
    if (found.length < sorted.length) {
      const present = new Set(found.map((p) => p.id));
      throw notFound(
        this.resourceName,
        sorted.find((id) => !present.has(id))!,
      );
    }
    return found;
  }

  /**
   * Writes the demand_avg_per_day of several products with one UPDATE, as save() writes a changed
   * record (version + 1, updated_at the transaction's timestamp), and sets the records' version and
   * updated_at to what the database now holds. The records are the caller's, locked beforehand.
   */
  async writeDemandAverages(records: readonly ProductRecord[]): Promise<void> {
    if (records.length === 0) return;
    const { entityId, livemode } = this.scope();
    // An UPDATE ... RETURNING answers [rows, affected count] through TypeORM's PostgreSQL driver.
    const [rows]: [{ id: string; version: number; updated_at: Date }[], number] =
      await this.tx.transactional.query(
        `UPDATE products p
            SET demand_avg_per_day = u.value, version = p.version + 1, updated_at = CURRENT_TIMESTAMP
           FROM unnest($3::uuid[], $4::numeric[]) AS u(id, value)
          WHERE p.entity_id = $1 AND p.livemode = $2 AND p.id = u.id
         RETURNING p.id, p.version, p.updated_at`,
        [
          entityId,
          livemode,
          records.map((r) => r.id),
          records.map((r) => moneyTransformer.to(r.demandAvgPerDay) as string),
        ],
      );
    const written = new Map(rows.map((r) => [r.id, r]));
    for (const record of records) {
      const row = written.get(record.id);
      if (!row) throw notFound(this.resourceName, record.id);
      record.version = row.version;
      record.updatedAt = row.updated_at;
    }
  }
}
