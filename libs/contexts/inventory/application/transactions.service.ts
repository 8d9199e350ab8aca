import { Injectable } from '@nestjs/common';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { listEnvelope, ListPage } from '#platform/http/list/paginate';
import { InventoryTransactionRepository } from '../infrastructure/inventory-transaction.repository';
import { toTransactionResource, TransactionResource } from './transaction.presenter';

export interface TransactionFilters {
  product_id?: string;
  location_id?: string;
  type?: string;
  source_id?: string;
  created_after?: string;
  created_before?: string;
}

/** The stock ledger, read-only: nothing updates or deletes a transaction. */
@Injectable()
export class TransactionsService {
  constructor(private readonly transactions: InventoryTransactionRepository) {}

  async list(query: ListQueryDto & TransactionFilters, url: string): Promise<ListPage<TransactionResource>> {
    const filtered = [
      'product_id',
      'location_id',
      'type',
      'source_id',
      'created_after',
      'created_before',
    ].some((k) => query[k as keyof TransactionFilters] !== undefined);
    const page = await this.transactions.page(
      query,
      { url },
      filtered
        ? (qb) => {
            if (query.product_id) qb.andWhere('r.product_id = :productId', { productId: query.product_id });
            if (query.location_id)
              qb.andWhere('r.location_id = :locationId', { locationId: query.location_id });
            if (query.type) qb.andWhere('r.type = :type', { type: query.type });
            if (query.source_id) qb.andWhere('r.source_id = :sourceId', { sourceId: query.source_id });
            // As on orders: "after" a shown (millisecond) timestamp starts at the next millisecond.
            if (query.created_after)
              qb.andWhere('r.created_at >= :after', {
                after: new Date(new Date(query.created_after).getTime() + 1),
              });
            if (query.created_before)
              qb.andWhere('r.created_at < :before', { before: new Date(query.created_before) });
          }
        : undefined,
    );
    return listEnvelope(page.rows.map(toTransactionResource), page, url);
  }

  async retrieve(id: string): Promise<TransactionResource> {
    return toTransactionResource(await this.transactions.getById(id));
  }
}
