import { Injectable } from '@nestjs/common';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { CREATED_TIME_FILTERS, listFilters } from '#platform/persistence/list-filters';
import { TenantRepository } from '#platform/persistence/tenant-repository';
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
export class InventoryTransactionRepository extends TenantRepository.of(
  InventoryTransactionRecord,
  'inventory transaction',
) {
  /** A page of the ledger, filtered by product, location, type, source and creation time. */
  list(query: ListQueryDto & InventoryTransactionListFilters, url: string) {
    const filters = listFilters(query, {
      equal: ['product_id', 'location_id', 'type', 'source_id'],
      where: CREATED_TIME_FILTERS,
    });
    return this.page(query, { url }, filters);
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
