import { Injectable } from '@nestjs/common';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { ReturnReceiptRecord } from './fulfillment.entities';

@Injectable()
export class ReturnReceiptRepository extends TenantRepository<ReturnReceiptRecord> {
  constructor(tx: TransactionHost) {
    super(tx, ReturnReceiptRecord, 'return receipt');
  }

  async ofReturn(returnOrderId: string): Promise<ReturnReceiptRecord[]> {
    return this.scopedQuery('r')
      .andWhere('r.return_order_id = :returnOrderId', { returnOrderId })
      .orderBy('r.id')
      .getMany();
  }
}
