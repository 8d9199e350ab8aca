import { Injectable } from '@nestjs/common';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { OrderRecord } from './order.entity';

/** An invoice the collections sweep looks at, with the tenant it belongs to. */
export interface CollectionCandidate {
  id: string;
  entityId: string;
  livemode: boolean;
}

@Injectable()
export class OrderRepository extends TenantRepository<OrderRecord> {
  constructor(tx: TransactionHost) {
    super(tx, OrderRecord, 'order');
  }

  /**
   * Issued invoices of every entity and mode with something due and a due date before `before`
   * (the collections sweep's candidates, oldest due first); served by orders_collections_due.
   */
  async collectionCandidatesAcrossEntities(before: string): Promise<CollectionCandidate[]> {
    const rows: { id: string; entity_id: string; livemode: boolean }[] = await this.tx.dataSource.query(
      `SELECT id, entity_id, livemode FROM orders
        WHERE document_type = 'invoice' AND due_date IS NOT NULL AND amount_due > 0
          AND order_status IN ('confirmed', 'fulfilled', 'closed') AND due_date < $1
        ORDER BY due_date, id`,
      [before],
    );
    return rows.map((r) => ({ id: r.id, entityId: r.entity_id, livemode: r.livemode }));
  }

  /**
   * The caller's order locked for the rest of the transaction, or null when another transaction
   * holds its lock (SKIP LOCKED: a concurrent sweep is handling it) or it does not exist.
   */
  lockUnlessHeld(id: string): Promise<OrderRecord | null> {
    return this.scopedQuery('r')
      .andWhere('r.id = :id', { id })
      .setLock('pessimistic_write')
      .setOnLocked('skip_locked')
      .getOne();
  }
}
