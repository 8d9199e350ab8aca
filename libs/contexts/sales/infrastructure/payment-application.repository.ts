import { Injectable } from '@nestjs/common';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { PaymentApplicationRecord } from './order.entity';

@Injectable()
export class PaymentApplicationRepository extends TenantRepository.of(
  PaymentApplicationRecord,
  'payment application',
) {
  /** The applications to each order (invoice), oldest first. */
  ofOrders(orderIds: readonly string[]): Promise<Map<string, PaymentApplicationRecord[]>> {
    return this.groupedBy('orderId', 'order_id', orderIds);
  }

  ofPayments(paymentIds: readonly string[]): Promise<Map<string, PaymentApplicationRecord[]>> {
    return this.groupedBy('paymentId', 'payment_id', paymentIds);
  }
}
