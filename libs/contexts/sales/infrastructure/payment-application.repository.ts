import { Injectable } from '@nestjs/common';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { PaymentApplicationRecord } from './order.entity';

@Injectable()
export class PaymentApplicationRepository extends TenantRepository<PaymentApplicationRecord> {
  constructor(tx: TransactionHost) {
    super(tx, PaymentApplicationRecord, 'payment application');
  }

  async ofPayments(paymentIds: readonly string[]): Promise<Map<string, PaymentApplicationRecord[]>> {
    const result = new Map<string, PaymentApplicationRecord[]>(paymentIds.map((id) => [id, []]));
    if (paymentIds.length === 0) return result;
    const rows = await this.scopedQuery('a')
      .andWhere('a.payment_id IN (:...paymentIds)', { paymentIds: [...new Set(paymentIds)] })
      .orderBy('a.id', 'ASC')
      .getMany();
    for (const row of rows) result.get(row.paymentId)?.push(row);
    return result;
  }
}
