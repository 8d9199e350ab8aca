import { Injectable } from '@nestjs/common';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { AccountContactRecord } from './account.entity';
import { AccountChildRepository } from './account-child.repository';

@Injectable()
export class ContactRepository extends AccountChildRepository<AccountContactRecord> {
  constructor(tx: TransactionHost) {
    super(tx, AccountContactRecord, 'contact');
  }
}
