import { Injectable } from '@nestjs/common';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { FiscalYearRecord } from './accounting.entities';

@Injectable()
export class FiscalYearRepository extends TenantRepository<FiscalYearRecord> {
  constructor(tx: TransactionHost) {
    super(tx, FiscalYearRecord, 'fiscal year');
  }
}
