import { Injectable } from '@nestjs/common';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { FreezeHistoryRecord } from './freeze.entity';

@Injectable()
export class FreezeHistoryRepository extends TenantRepository<FreezeHistoryRecord> {
  constructor(tx: TransactionHost) {
    super(tx, FreezeHistoryRecord, 'freeze history entry');
  }
}
