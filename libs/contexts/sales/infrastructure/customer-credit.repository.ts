import { Injectable } from '@nestjs/common';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { CustomerCreditRecord } from './order.entity';

@Injectable()
export class CustomerCreditRepository extends TenantRepository<CustomerCreditRecord> {
  constructor(tx: TransactionHost) {
    super(tx, CustomerCreditRecord, 'customer credit');
  }
}
