import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { money } from '#platform/domain/money';
import { isUuid } from '#platform/persistence/ids';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { RefundRecord } from './order.entity';

@Injectable()
export class RefundRepository extends TenantRepository.of(RefundRecord, 'refund') {
  /** A page of the refunds of one payment. */
  listOfPayment(paymentId: string, query: ListQueryDto, url: string) {
    return this.page(query, { url }, (qb) => qb.andWhere('r.payment_id = :paymentId', { paymentId }));
  }

  /** What the pending refunds of a payment hold (reserved, the processor's answer not recorded yet). */
  async pendingTotal(paymentId: string): Promise<Decimal> {
    const row = await this.scopedQuery('r')
      .select('COALESCE(SUM(r.amount), 0)', 'total')
      .andWhere("r.payment_id = :paymentId AND r.status = 'pending'", { paymentId })
      .getRawOne<{ total: string }>();
    return money(row?.total ?? 0);
  }

  /** The pending refunds of a payment made before `before` that no return's refund owns, oldest first. */
  stalePendingOf(paymentId: string, before: Date): Promise<RefundRecord[]> {
    // An id that is not a uuid names no payment (the caller then answers 404).
    if (!isUuid(paymentId)) return Promise.resolve([]);
    return this.scopedQuery('r')
      .andWhere("r.payment_id = :paymentId AND r.status = 'pending' AND r.return_id IS NULL", { paymentId })
      .andWhere('r.created_at < :before', { before })
      .orderBy('r.id')
      .getMany();
  }
}
