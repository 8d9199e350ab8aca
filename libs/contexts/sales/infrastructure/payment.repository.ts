import { Injectable } from '@nestjs/common';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { PaymentRecord } from './order.entity';

export interface PaymentListFilters {
  order_id?: string;
  account_id?: string;
  status?: string;
}

@Injectable()
export class PaymentRepository extends TenantRepository<PaymentRecord> {
  constructor(tx: TransactionHost) {
    super(tx, PaymentRecord, 'payment');
  }

  /** A page of payments, filtered by order, account and status. */
  list(query: ListQueryDto & PaymentListFilters, url: string) {
    return this.page(query, { url }, (qb) => {
      if (query.order_id) qb.andWhere('r.order_id = :orderId', { orderId: query.order_id });
      if (query.account_id) qb.andWhere('r.account_id = :accountId', { accountId: query.account_id });
      if (query.status) qb.andWhere('r.status = :status', { status: query.status });
    });
  }
}
