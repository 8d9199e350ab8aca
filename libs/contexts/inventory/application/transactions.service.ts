import { Injectable } from '@nestjs/common';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { listEnvelope, ListPage } from '#platform/http/list/paginate';
import {
  InventoryTransactionListFilters as TransactionFilters,
  InventoryTransactionRepository,
} from '../infrastructure/inventory-transaction.repository';
import { toTransactionResource, TransactionResource } from './transaction.presenter';

/** The stock ledger, read-only: nothing updates or deletes a transaction. */
@Injectable()
export class TransactionsService {
  constructor(private readonly transactions: InventoryTransactionRepository) {}

  async list(query: ListQueryDto & TransactionFilters, url: string): Promise<ListPage<TransactionResource>> {
    const page = await this.transactions.list(query, url);
    return listEnvelope(page.rows.map(toTransactionResource), page, url);
  }

  async retrieve(id: string): Promise<TransactionResource> {
    return toTransactionResource(await this.transactions.getById(id));
  }
}
