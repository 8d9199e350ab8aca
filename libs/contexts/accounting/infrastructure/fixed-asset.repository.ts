import { Injectable } from '@nestjs/common';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { FixedAssetRecord } from './accounting.entities';

@Injectable()
export class FixedAssetRepository extends TenantRepository<FixedAssetRecord> {
  constructor(tx: TransactionHost) {
    super(tx, FixedAssetRecord, 'fixed asset');
  }
}
