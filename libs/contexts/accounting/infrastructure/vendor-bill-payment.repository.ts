import { Injectable } from '@nestjs/common';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { VendorBillPaymentRecord } from './accounting.entities';

@Injectable()
export class VendorBillPaymentRepository extends TenantRepository<VendorBillPaymentRecord> {
  constructor(tx: TransactionHost) {
    super(tx, VendorBillPaymentRecord, 'vendor bill payment');
  }
}
