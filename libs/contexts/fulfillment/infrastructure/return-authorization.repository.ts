import { Injectable } from '@nestjs/common';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { PageFilter, TenantRepository } from '#platform/persistence/tenant-repository';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { ReturnAuthorizationRecord } from './fulfillment.entities';

export interface ReturnListFilters {
  account_id?: string;
  order_id?: string;
  status?: string;
  created_after?: string;
  created_before?: string;
}

@Injectable()
export class ReturnAuthorizationRepository extends TenantRepository<ReturnAuthorizationRecord> {
  constructor(tx: TransactionHost) {
    super(tx, ReturnAuthorizationRecord, 'return');
  }

  /** A page of returns, filtered by account, order, status and creation time (column filters: one prepared statement). */
  list(query: ListQueryDto & ReturnListFilters, url: string) {
    const filters: PageFilter[] = [];
    if (query.account_id) filters.push({ sql: 'account_id = ?', value: query.account_id });
    if (query.order_id) filters.push({ sql: 'order_id = ?', value: query.order_id });
    if (query.status) filters.push({ sql: 'status = ?', value: query.status });
    // Shown with milliseconds, stored with microseconds: "after" a shown value starts at the next millisecond.
    if (query.created_after)
      filters.push({ sql: 'created_at >= ?', value: new Date(new Date(query.created_after).getTime() + 1) });
    if (query.created_before) filters.push({ sql: 'created_at < ?', value: new Date(query.created_before) });
    return this.page(query, { url }, filters);
  }

  /** Inserts a return under the id of its return document. */
  async createWithId(
    id: string,
    values: Omit<Partial<ReturnAuthorizationRecord>, 'id' | 'entityId' | 'livemode'>,
  ): Promise<ReturnAuthorizationRecord> {
    const repo = this.tx.transactional.getRepository(ReturnAuthorizationRecord);
    return repo.save(repo.create({ ...values, id, ...this.scope() }));
  }

  /** The returns of a sales order that are not cancelled (their lines hold shipped units). */
  ofOrder(orderId: string): Promise<ReturnAuthorizationRecord[]> {
    return this.scopedQuery('r')
      .andWhere("r.order_id = :orderId AND r.status <> 'cancelled'", { orderId })
      .orderBy('r.id')
      .getMany();
  }
}
