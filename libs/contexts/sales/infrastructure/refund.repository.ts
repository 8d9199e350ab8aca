import { Injectable } from '@nestjs/common';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { RefundRecord } from './order.entity';

@Injectable()
export class RefundRepository extends TenantRepository<RefundRecord> {
  constructor(tx: TransactionHost) {
    super(tx, RefundRecord, 'refund');
  }
}
