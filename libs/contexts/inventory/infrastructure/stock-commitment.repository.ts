import { Injectable } from '@nestjs/common';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { StockCommitmentRecord } from './inventory.entities';

/** Open commitments of order lines (sales lines: allocated; purchase-order lines: on order). */
@Injectable()
export class StockCommitmentRepository extends TenantRepository<StockCommitmentRecord> {
  constructor(tx: TransactionHost) {
    super(tx, StockCommitmentRecord, 'stock commitment');
  }

  /** The commitments of an order, locked for the rest of the transaction. */
  async ofOrderForUpdate(
    orderId: string,
    kind: StockCommitmentRecord['kind'],
  ): Promise<StockCommitmentRecord[]> {
    return this.scopedQuery('c')
      .andWhere('c.order_id = :orderId AND c.kind = :kind', { orderId, kind })
      .orderBy('c.id')
      .setLock('pessimistic_write')
      .getMany();
  }

  /** The oldest open commitment of a product (the QA seed finds its serial order's line this way). */
  async firstOpenOfProduct(
    productId: string,
    kind: StockCommitmentRecord['kind'],
  ): Promise<StockCommitmentRecord | null> {
    return this.scopedQuery('c')
      .andWhere('c.product_id = :productId AND c.kind = :kind AND c.open_quantity > 0', { productId, kind })
      .orderBy('c.id', 'ASC')
      .getOne();
  }

  /** Writes the open and done quantities of several commitments in one statement. */
  async saveQuantities(rows: readonly StockCommitmentRecord[]): Promise<void> {
    if (rows.length === 0) return;
    const { entityId, livemode } = this.scope();
    await this.tx.manager.query(
      `UPDATE stock_commitments c
          SET open_quantity = v.open, done_quantity = v.done, version = c.version + 1, updated_at = CURRENT_TIMESTAMP
         FROM unnest($3::uuid[], $4::int[], $5::int[]) AS v(id, open, done)
        WHERE c.entity_id = $1 AND c.livemode = $2 AND c.id = v.id`,
      [
        entityId,
        livemode,
        rows.map((r) => r.id),
        rows.map((r) => r.openQuantity),
        rows.map((r) => r.doneQuantity),
      ],
    );
  }
}
