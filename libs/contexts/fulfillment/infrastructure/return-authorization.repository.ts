import { Injectable } from '@nestjs/common';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { CREATED_TIME_FILTERS, listFilters } from '#platform/persistence/list-filters';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { ReturnAuthorizationRecord } from './fulfillment.entities';

export interface ReturnListFilters {
  account_id?: string;
  order_id?: string;
  status?: string;
  created_after?: string;
  created_before?: string;
}

@Injectable()
export class ReturnAuthorizationRepository extends TenantRepository.of(ReturnAuthorizationRecord, 'return') {
  /** A page of returns, filtered by account, order, status and creation time (column filters: one prepared statement). */
  list(query: ListQueryDto & ReturnListFilters, url: string) {
    const filters = listFilters(query, {
      equal: ['account_id', 'order_id', 'status'],
      where: CREATED_TIME_FILTERS,
    });
    return this.page(query, { url }, filters);
  }

  /** The returns of a sales order that are not cancelled (their lines hold shipped units). */
  ofOrder(orderId: string): Promise<ReturnAuthorizationRecord[]> {
    return this.scopedQuery('r')
      .andWhere("r.order_id = :orderId AND r.status <> 'cancelled'", { orderId })
      .orderBy('r.id')
      .getMany();
  }
}
