import { Injectable } from '@nestjs/common';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import {
  InventoryTransactionListFilters as TransactionFilters,
  InventoryTransactionRepository,
} from '../infrastructure/inventory-transaction.repository';
import { toTransactionResource, TransactionResource } from './transaction.presenter';
import { ResourceReads } from '#platform/http/list/resource-reads';
import type { InventoryTransactionRecord } from '../infrastructure/inventory.entities';

/** The stock ledger, read-only: nothing updates or deletes a transaction. */
@Injectable()
export class TransactionsService extends ResourceReads<
  InventoryTransactionRecord,
  TransactionResource,
  ListQueryDto & TransactionFilters
> {
  constructor(transactions: InventoryTransactionRepository) {
    super(transactions, toTransactionResource);
  }
}
