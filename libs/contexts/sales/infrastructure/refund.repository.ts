import { Injectable } from '@nestjs/common';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { RefundRecord } from './order.entity';

@Injectable()
export class RefundRepository extends TenantRepository.of(RefundRecord, 'refund') {
  /** A page of the refunds of one payment. */
  listOfPayment(paymentId: string, query: ListQueryDto, url: string) {
    return this.page(query, { url }, (qb) => qb.andWhere('r.payment_id = :paymentId', { paymentId }));
  }
}
