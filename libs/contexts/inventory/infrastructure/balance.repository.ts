import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { newId } from '../../../platform/persistence/ids';
import { TenantRepository } from '../../../platform/persistence/tenant-repository';
import { TransactionHost } from '../../../platform/persistence/transaction-host';
import { InventoryBalanceRecord } from './inventory.entities';

/** The key of one balance: product (and variant) at a location. */
export interface BalanceKey {
  productId: string;
  variantId: string | null;
  locationId: string;
}

const NIL = '00000000-0000-0000-0000-000000000000';
export const balanceKeyOf = (k: BalanceKey) => `${k.productId}:${k.variantId ?? NIL}:${k.locationId}`;

/** Balances: one row per product, variant and location, moved only under a row lock. */
@Injectable()
export class BalanceRepository extends TenantRepository<InventoryBalanceRecord> {
  constructor(tx: TransactionHost) {
    super(tx, InventoryBalanceRecord, 'inventory balance');
  }

  /**
   * The balances of `keys`, created at zero when missing, locked FOR UPDATE for the rest of the
   * transaction in one fixed order (product, location, variant), so two movements touching the
   * same balances never deadlock and concurrent movements of one balance apply one after another.
   */
  async lockForMovement(keys: readonly BalanceKey[]): Promise<Map<string, InventoryBalanceRecord>> {
    const unique = [...new Map(keys.map((k) => [balanceKeyOf(k), k])).values()];
    if (unique.length === 0) return new Map();
    const { entityId, livemode } = this.scope();
    const manager = this.tx.transactional;
    const products = unique.map((k) => k.productId);
    const variants = unique.map((k) => k.variantId ?? NIL);
    const locations = unique.map((k) => k.locationId);
    await manager.query(
      `INSERT INTO inventory_balances (id, entity_id, livemode, product_id, variant_id, location_id)
       SELECT ids.id, $1, $2, k.product_id, nullif(k.variant_id, '${NIL}'::uuid), k.location_id
       FROM unnest($3::uuid[], $4::uuid[], $5::uuid[]) WITH ORDINALITY AS k(product_id, variant_id, location_id, n)
       JOIN unnest($6::uuid[]) WITH ORDINALITY AS ids(id, n) USING (n)
       ORDER BY k.product_id, k.location_id, k.variant_id
       ON CONFLICT (entity_id, livemode, product_id, location_id, coalesce(variant_id, '${NIL}'::uuid)) DO NOTHING`,
      [entityId, livemode, products, variants, locations, unique.map(() => newId())],
    );
    const rows = await manager
      .getRepository(InventoryBalanceRecord)
      .createQueryBuilder('b')
      .where('b.entity_id = :entityId AND b.livemode = :livemode', { entityId, livemode })
      .andWhere(
        `(b.product_id, b.location_id, coalesce(b.variant_id, '${NIL}'::uuid)) IN (SELECT * FROM unnest(CAST(:products AS uuid[]), CAST(:locations AS uuid[]), CAST(:variants AS uuid[])))`,
        { products, locations, variants },
      )
      .orderBy('b.product_id')
      .addOrderBy('b.location_id')
      .addOrderBy('b.variant_id')
      .setLock('pessimistic_write')
      .getMany();
    return new Map(rows.map((r) => [balanceKeyOf(r), r]));
  }

  /** The balance of a key without locking (null when none exists yet). */
  async findByKey(key: BalanceKey): Promise<InventoryBalanceRecord | null> {
    const { entityId, livemode } = this.scope();
    return this.repo
      .createQueryBuilder('b')
      .where('b.entity_id = :entityId AND b.livemode = :livemode', { entityId, livemode })
      .andWhere('b.product_id = :productId AND b.location_id = :locationId', key)
      .andWhere(`coalesce(b.variant_id, '${NIL}'::uuid) = :variantId`, { variantId: key.variantId ?? NIL })
      .getOne();
  }

  /** Writes a moved balance (quantities, valuation, level) in the open transaction. */
  async writeMoved(b: InventoryBalanceRecord): Promise<void> {
    await this.tx.transactional.query(
      `UPDATE inventory_balances SET on_hand = $2, allocated = $3, on_order = $4, unit_cost = $5, value = $6,
         stock_level = $7, reorder_point = $8, reorder_quantity = $9, safety_stock = $10,
         updated_at = $11, version = version + 1
       WHERE id = $1`,
      [
        b.id,
        b.onHand,
        b.allocated,
        b.onOrder,
        (b.unitCost as Decimal).toFixed(4),
        (b.value as Decimal).toFixed(4),
        b.stockLevel,
        b.reorderPoint,
        b.reorderQuantity,
        b.safetyStock,
        b.updatedAt,
      ],
    );
    b.version += 1;
  }

  /** Sum of balance values of the caller's entity and mode: the inventory subledger. */
  async totalValue(): Promise<string> {
    const { entityId, livemode } = this.scope();
    const rows: { total: string | null }[] = await this.tx.manager.query(
      `SELECT coalesce(sum(value), 0)::text AS total FROM inventory_balances WHERE entity_id = $1 AND livemode = $2`,
      [entityId, livemode],
    );
    return rows[0]?.total ?? '0';
  }
}
