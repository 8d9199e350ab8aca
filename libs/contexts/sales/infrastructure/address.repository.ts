import { Injectable } from '@nestjs/common';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { AccountAddressRecord } from './account.entity';
import { AccountChildRepository } from './account-child.repository';

@Injectable()
export class AddressRepository extends AccountChildRepository<AccountAddressRecord> {
  constructor(tx: TransactionHost) {
    super(tx, AccountAddressRecord, 'address');
  }
}
