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
    return this.plainRows('order_id = $3 AND kind = $4', [orderId, kind], 'id', true);
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

  /** Writes the open and done quantities of several locked commitments with one UPDATE (see updateMany). */
  saveQuantities(rows: readonly StockCommitmentRecord[]): Promise<void> {
    return this.updateMany(rows, ['openQuantity', 'doneQuantity']);
  }
}
