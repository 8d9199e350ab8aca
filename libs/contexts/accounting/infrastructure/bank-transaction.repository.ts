import { Injectable } from '@nestjs/common';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { BankTransactionRecord } from './accounting.entities';

export interface BankTransactionListFilters {
  bank_account_id?: string;
  type?: string;
  status?: string;
  date_from?: string;
  date_to?: string;
}

@Injectable()
export class BankTransactionRepository extends TenantRepository<BankTransactionRecord> {
  constructor(tx: TransactionHost) {
    super(tx, BankTransactionRecord, 'bank transaction');
  }

  /** A page of bank transactions, filtered by bank account, type, status and date range (inclusive). */
  list(query: ListQueryDto & BankTransactionListFilters, url: string) {
    return this.page(query, { url }, (qb) => {
      if (query.bank_account_id)
        qb.andWhere('r.bank_account_id = :account', { account: query.bank_account_id });
      if (query.type) qb.andWhere('r.type = :type', { type: query.type });
      if (query.status) qb.andWhere('r.status = :status', { status: query.status });
      if (query.date_from) qb.andWhere('r.transaction_date >= :from', { from: query.date_from });
      if (query.date_to) qb.andWhere('r.transaction_date <= :to', { to: query.date_to });
    });
  }
}
