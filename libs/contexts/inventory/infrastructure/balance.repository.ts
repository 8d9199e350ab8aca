import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { newId } from '#platform/persistence/ids';
import { money } from '#platform/domain/money';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { InventoryBalanceRecord } from './inventory.entities';

/** The key of one balance: product (and variant) at a location. */
export interface BalanceKey {
  productId: string;
  variantId: string | null;
  locationId: string;
}

export interface BalanceListFilters {
  product_id?: string;
  location_id?: string;
  below_reorder_point?: boolean;
}

/** A keyset window of balances for planning, of one location and of some products. */
export interface PlanningPageRequest {
  locationId?: string;
  productIds?: readonly string[];
  startingAfter?: string;
  endingBefore?: string;
  limit: number;
}

const NIL = '00000000-0000-0000-0000-000000000000';
export const balanceKeyOf = (k: BalanceKey) => `${k.productId}:${k.variantId ?? NIL}:${k.locationId}`;

/** The balances of the keys in $3..$5 (product, variant, location) of entity $1 and mode $2, locked. */
const LOCKED_BALANCES = `SELECT b.id, b.entity_id, b.livemode, b.created_at, b.updated_at, b.version, b.product_id, b.variant_id,
         b.location_id, b.on_hand, b.allocated, b.on_order, b.unit_cost::text AS unit_cost, b.value::text AS value,
         b.reorder_point, b.reorder_quantity, b.safety_stock, b.stock_level,
         (SELECT s.allow_negative_stock FROM inventory_settings s WHERE s.entity_id = $1 AND s.livemode = $2) AS allow_negative_stock
       FROM inventory_balances b
       WHERE b.entity_id = $1 AND b.livemode = $2
         AND (b.product_id, b.location_id, coalesce(b.variant_id, '${NIL}'::uuid))
             IN (SELECT p, l, v FROM unnest($3::uuid[], $4::uuid[], $5::uuid[]) AS k(p, v, l))
       ORDER BY b.product_id, b.location_id, b.variant_id
       FOR UPDATE OF b`;

interface BalanceRow {
  id: string;
  entity_id: string;
  livemode: boolean;
  created_at: Date;
  updated_at: Date;
  version: number;
  product_id: string;
  variant_id: string | null;
  location_id: string;
  on_hand: number;
  allocated: number;
  on_order: number;
  unit_cost: string;
  value: string;
  reorder_point: number | null;
  reorder_quantity: number | null;
  safety_stock: number | null;
  stock_level: string;
  allow_negative_stock: boolean | null;
}

const toKey = (r: BalanceRow): BalanceKey => ({
  productId: r.product_id,
  variantId: r.variant_id,
  locationId: r.location_id,
});

/** A balance row as the record TypeORM would load (no entity hydration on the movement path). */
function toRecord(r: BalanceRow): InventoryBalanceRecord {
  return Object.assign(new InventoryBalanceRecord(), {
    id: r.id,
    entityId: r.entity_id,
    livemode: r.livemode,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    version: r.version,
    productId: r.product_id,
    variantId: r.variant_id,
    locationId: r.location_id,
    onHand: r.on_hand,
    allocated: r.allocated,
    onOrder: r.on_order,
    unitCost: money(r.unit_cost),
    value: money(r.value),
    reorderPoint: r.reorder_point,
    reorderQuantity: r.reorder_quantity,
    safetyStock: r.safety_stock,
    stockLevel: r.stock_level,
  });
}

/** Balances: one row per product, variant and location, moved only under a row lock. */
@Injectable()
export class BalanceRepository extends TenantRepository.of(InventoryBalanceRecord, 'inventory balance') {
  /** A page of balances, filtered by product, location and whether on hand is at or below the reorder point. */
  list(query: ListQueryDto & BalanceListFilters, url: string) {
    const filtered = query.product_id || query.location_id || query.below_reorder_point !== undefined;
    return this.page(
      query,
      { url },
      filtered
        ? (qb) => {
            if (query.product_id) qb.andWhere('r.product_id = :productId', { productId: query.product_id });
            if (query.location_id)
              qb.andWhere('r.location_id = :locationId', { locationId: query.location_id });
            if (query.below_reorder_point === true)
              qb.andWhere('r.reorder_point IS NOT NULL AND r.on_hand <= r.reorder_point');
            if (query.below_reorder_point === false)
              qb.andWhere('(r.reorder_point IS NULL OR r.on_hand > r.reorder_point)');
          }
        : undefined,
    );
  }

  /** A keyset page of balances for planning (newest first), of the location and products asked for. */
  planningPage(request: PlanningPageRequest) {
    // paginate() reads `limit` from the query: one extra row tells has_more.
    return this.page(
      { limit: request.limit, starting_after: request.startingAfter, ending_before: request.endingBefore },
      { url: '' },
      (qb) => {
        if (request.locationId)
          qb.andWhere('r.location_id = :locationId', { locationId: request.locationId });
        if (request.productIds)
          qb.andWhere('r.product_id IN (:...productIds)', { productIds: [...request.productIds] });
      },
    );
  }

  /**
   * The balances of `keys`, created at zero when missing, locked FOR UPDATE for the rest of the
   * transaction in one fixed order (product, location, variant), so two movements touching the
   * same balances never deadlock and concurrent movements of one balance apply one after another;
   * with the entity's `allow_negative_stock` setting (false without a settings row).
   *
   * One statement locks the existing balances and inserts the missing ones (the insert runs after
   * the locks); a second one locks the balances the first did not see, only when there are any.
   */
  async lockForMovement(keys: readonly BalanceKey[]): Promise<{
    balances: Map<string, InventoryBalanceRecord>;
    allowNegativeStock: boolean;
    /** Ids of the balances this call created. */
    created: Set<string>;
  }> {
    const unique = [...new Map(keys.map((k) => [balanceKeyOf(k), k])).values()];
    if (unique.length === 0) return { balances: new Map(), allowNegativeStock: false, created: new Set() };
    const ids = unique.map(() => newId());
    const { entityId, livemode } = this.scope();
    const manager = this.tx.transactional;
    const products = unique.map((k) => k.productId);
    const variants = unique.map((k) => k.variantId ?? NIL);
    const locations = unique.map((k) => k.locationId);
    const rows: BalanceRow[] = await manager.query(
      `WITH created AS (
         INSERT INTO inventory_balances (id, entity_id, livemode, product_id, variant_id, location_id)
         SELECT ids.id, $1, $2, k.product_id, nullif(k.variant_id, '${NIL}'::uuid), k.location_id
         FROM unnest($3::uuid[], $4::uuid[], $5::uuid[]) WITH ORDINALITY AS k(product_id, variant_id, location_id, n)
         JOIN unnest($6::uuid[]) WITH ORDINALITY AS ids(id, n) USING (n)
         ORDER BY k.product_id, k.location_id, k.variant_id
         ON CONFLICT (entity_id, livemode, product_id, location_id, coalesce(variant_id, '${NIL}'::uuid)) DO NOTHING)
       ${LOCKED_BALANCES}`,
      [entityId, livemode, products, variants, locations, ids],
    );
    if (rows.length < unique.length) {
      // Balances created by this statement (or committed by another since it began) are locked now.
      const seen = new Set(rows.map((r) => balanceKeyOf(toKey(r))));
      const missing = unique.filter((k) => !seen.has(balanceKeyOf(k)));
      rows.push(
        ...((await manager.query(`${LOCKED_BALANCES}`, [
          entityId,
          livemode,
          missing.map((k) => k.productId),
          missing.map((k) => k.variantId ?? NIL),
          missing.map((k) => k.locationId),
        ])) as BalanceRow[]),
      );
    }
    const allowNegativeStock = rows.some((r) => r.allow_negative_stock === true);
    const proposed = new Set(ids);
    return {
      balances: new Map(rows.map((r) => [balanceKeyOf(toKey(r)), toRecord(r)])),
      allowNegativeStock,
      created: new Set(rows.filter((r) => proposed.has(r.id)).map((r) => r.id)),
    };
  }

  /** Deletes balances the open transaction created and then did not move (they hold no ledger row yet). */
  async deleteUnmoved(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    const { entityId, livemode } = this.scope();
    await this.tx.transactional.query(
      `DELETE FROM inventory_balances WHERE entity_id = $1 AND livemode = $2 AND id = ANY($3::uuid[])`,
      [entityId, livemode, ids],
    );
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
