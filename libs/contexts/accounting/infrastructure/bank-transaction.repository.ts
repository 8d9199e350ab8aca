import { Injectable } from '@nestjs/common';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { BankTransactionRecord } from './accounting.entities';

@Injectable()
export class BankTransactionRepository extends TenantRepository<BankTransactionRecord> {
  constructor(tx: TransactionHost) {
    super(tx, BankTransactionRecord, 'bank transaction');
  }
}
