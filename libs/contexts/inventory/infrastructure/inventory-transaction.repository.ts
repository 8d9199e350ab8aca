import { Injectable } from '@nestjs/common';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { InventoryTransactionRecord } from './inventory.entities';

export interface InventoryTransactionListFilters {
  product_id?: string;
  location_id?: string;
  type?: string;
  source_id?: string;
  created_after?: string;
  created_before?: string;
}

/** The stock ledger: rows are only ever inserted. */
@Injectable()
export class InventoryTransactionRepository extends TenantRepository<InventoryTransactionRecord> {
  constructor(tx: TransactionHost) {
    super(tx, InventoryTransactionRecord, 'inventory transaction');
  }

  /** A page of the ledger, filtered by product, location, type, source and creation time. */
  list(query: ListQueryDto & InventoryTransactionListFilters, url: string) {
    const filtered = [
      'product_id',
      'location_id',
      'type',
      'source_id',
      'created_after',
      'created_before',
    ].some((k) => query[k as keyof InventoryTransactionListFilters] !== undefined);
    return this.page(
      query,
      { url },
      filtered
        ? (qb) => {
            if (query.product_id) qb.andWhere('r.product_id = :productId', { productId: query.product_id });
            if (query.location_id)
              qb.andWhere('r.location_id = :locationId', { locationId: query.location_id });
            if (query.type) qb.andWhere('r.type = :type', { type: query.type });
            if (query.source_id) qb.andWhere('r.source_id = :sourceId', { sourceId: query.source_id });
            // As on orders: "after" a shown (millisecond) timestamp starts at the next millisecond.
            if (query.created_after)
              qb.andWhere('r.created_at >= :after', {
                after: new Date(new Date(query.created_after).getTime() + 1),
              });
            if (query.created_before)
              qb.andWhere('r.created_at < :before', { before: new Date(query.created_before) });
          }
        : undefined,
    );
  }

  /** Each balance's ledger replayed: balances whose on_hand or value differ from the sum of their rows. */
  async mismatchedBalances(): Promise<
    { balance_id: string; on_hand: number; ledger_quantity: number; value: string; ledger_value: string }[]
  > {
    const { entityId, livemode } = this.scope();
    return this.tx.manager.query(
      `SELECT b.id AS balance_id, b.on_hand, coalesce(t.quantity, 0)::int AS ledger_quantity,
              b.value::text AS value, coalesce(t.value, 0)::text AS ledger_value
       FROM inventory_balances b
       LEFT JOIN (SELECT balance_id, sum(quantity) AS quantity, sum(value) AS value
                  FROM inventory_transactions WHERE entity_id = $1 AND livemode = $2 GROUP BY balance_id) t
         ON t.balance_id = b.id
       WHERE b.entity_id = $1 AND b.livemode = $2
         AND (b.on_hand <> coalesce(t.quantity, 0) OR b.value <> coalesce(t.value, 0))`,
      [entityId, livemode],
    );
  }
}
