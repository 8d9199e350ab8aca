import { Injectable } from '@nestjs/common';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { PaymentRecord } from './order.entity';

@Injectable()
export class PaymentRepository extends TenantRepository<PaymentRecord> {
  constructor(tx: TransactionHost) {
    super(tx, PaymentRecord, 'payment');
  }
}
