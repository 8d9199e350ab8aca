import { Injectable } from '@nestjs/common';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { InventoryTransactionRecord } from './inventory.entities';

/** The stock ledger: rows are only ever inserted. */
@Injectable()
export class InventoryTransactionRepository extends TenantRepository<InventoryTransactionRecord> {
  constructor(tx: TransactionHost) {
    super(tx, InventoryTransactionRecord, 'inventory transaction');
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
