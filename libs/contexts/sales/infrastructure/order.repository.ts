import { Injectable } from '@nestjs/common';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { OrderRecord } from './order.entity';

@Injectable()
export class OrderRepository extends TenantRepository<OrderRecord> {
  constructor(tx: TransactionHost) {
    super(tx, OrderRecord, 'order');
  }
}
