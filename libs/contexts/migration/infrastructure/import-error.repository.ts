import { Injectable } from '@nestjs/common';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { ImportErrorRecord } from './import.entity';

@Injectable()
export class ImportErrorRepository extends TenantRepository<ImportErrorRecord> {
  constructor(tx: TransactionHost) {
    super(tx, ImportErrorRecord, 'import error');
  }
}
