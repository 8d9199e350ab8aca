import { Injectable } from '@nestjs/common';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { AccountRecord } from './account.entity';

@Injectable()
export class AccountRepository extends TenantRepository<AccountRecord> {
  constructor(tx: TransactionHost) {
    super(tx, AccountRecord, 'account');
  }
}
