import { Injectable } from '@nestjs/common';
import { TenantRepository } from '../../../platform/persistence/tenant-repository';
import { TransactionHost } from '../../../platform/persistence/transaction-host';
import { EntityFreezeRecord, FreezeHistoryRecord } from './freeze.entity';
import { ImportErrorRecord, ImportRecord } from './import.entity';

@Injectable()
export class ImportRepository extends TenantRepository<ImportRecord> {
  constructor(tx: TransactionHost) {
    super(tx, ImportRecord, 'import');
  }
}

@Injectable()
export class ImportErrorRepository extends TenantRepository<ImportErrorRecord> {
  constructor(tx: TransactionHost) {
    super(tx, ImportErrorRecord, 'import error');
  }
}

@Injectable()
export class FreezeRepository extends TenantRepository<EntityFreezeRecord> {
  constructor(tx: TransactionHost) {
    super(tx, EntityFreezeRecord, 'freeze status');
  }
}

@Injectable()
export class FreezeHistoryRepository extends TenantRepository<FreezeHistoryRecord> {
  constructor(tx: TransactionHost) {
    super(tx, FreezeHistoryRecord, 'freeze history entry');
  }
}
