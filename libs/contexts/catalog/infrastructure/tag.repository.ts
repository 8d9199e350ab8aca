import { Injectable } from '@nestjs/common';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { TagRecord } from './tag.entity';

@Injectable()
export class TagRepository extends TenantRepository<TagRecord> {
  constructor(tx: TransactionHost) {
    super(tx, TagRecord, 'tag');
  }
}
