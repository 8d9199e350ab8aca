import { Injectable } from '@nestjs/common';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { listFilters } from '#platform/persistence/list-filters';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { BankTransactionRecord } from './accounting.entities';

export interface BankTransactionListFilters {
  bank_account_id?: string;
  type?: string;
  status?: string;
  date_from?: string;
  date_to?: string;
}

@Injectable()
export class BankTransactionRepository extends TenantRepository.of(
  BankTransactionRecord,
  'bank transaction',
) {
  /** A page of bank transactions, filtered by bank account, type, status and date range (inclusive). */
  list(query: ListQueryDto & BankTransactionListFilters, url: string) {
    const filters = listFilters(query, {
      equal: ['bank_account_id', 'type', 'status'],
      where: { date_from: 'transaction_date >= ?', date_to: 'transaction_date <= ?' },
    });
    return this.page(query, { url }, filters);
  }
}
