import { Injectable } from '@nestjs/common';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { listFilters } from '#platform/persistence/list-filters';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { PaymentRecord } from './order.entity';

export interface PaymentListFilters {
  order_id?: string;
  account_id?: string;
  status?: string;
}

@Injectable()
export class PaymentRepository extends TenantRepository.of(PaymentRecord, 'payment') {
  /** A page of payments, filtered by order, account and status. */
  list(query: ListQueryDto & PaymentListFilters, url: string) {
    return this.page(query, { url }, listFilters(query, { equal: ['order_id', 'account_id', 'status'] }));
  }
}
