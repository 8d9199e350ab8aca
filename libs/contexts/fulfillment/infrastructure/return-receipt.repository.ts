import { Injectable } from '@nestjs/common';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { ReturnReceiptRecord } from './fulfillment.entities';

@Injectable()
export class ReturnReceiptRepository extends TenantRepository.of(ReturnReceiptRecord, 'return receipt') {
  /** The receipts of a return, oldest first. */
  async ofReturn(returnOrderId: string): Promise<ReturnReceiptRecord[]> {
    return (await this.groupedBy('returnOrderId', 'return_order_id', [returnOrderId])).get(returnOrderId)!;
  }
}
