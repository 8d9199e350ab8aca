import { Injectable } from '@nestjs/common';
import { combinedWrite, TransactionHost } from '#platform/persistence/transaction-host';
import { DemandAggregateRepository, DemandDelta } from './demand-aggregate.repository';
import { DemandRefreshMarkRepository } from './demand-refresh-mark.repository';
import { LineShipmentRepository } from './line-shipment.repository';

/** What a stock movement adds to demand, written in the movement's transaction. */
@Injectable()
export class DemandWriter {
  constructor(
    private readonly tx: TransactionHost,
    private readonly aggregates: DemandAggregateRepository,
    private readonly shipments: LineShipmentRepository,
    private readonly marks: DemandRefreshMarkRepository,
  ) {}

  /**
   * Adds `deltas` to the day's demand aggregates and `shipped` to the order lines' shipped units,
   * and marks `productIds`, whose stored demand average is now behind, for the refresh: one
   * statement.
   */
  async record(
    deltas: readonly DemandDelta[],
    shipped: readonly { lineId: string; productId: string; units: number }[],
    productIds: readonly string[],
  ): Promise<void> {
    const write = combinedWrite([
      this.aggregates.addStatement(deltas),
      this.shipments.addStatement(shipped),
      this.marks.markStatement(productIds),
    ]);
    if (write) await this.tx.transactional.query(write.sql, write.params);
  }
}
