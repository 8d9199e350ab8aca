import { Injectable } from '@nestjs/common';
import { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { VendorBillPaymentRecord, VendorBillRecord } from './accounting.entities';

@Injectable()
export class VendorBillPaymentRepository extends TenantRepository.of(
  VendorBillPaymentRecord,
  'vendor bill payment',
) {
  /** The payments of a bill, by payment date. */
  ofBill(bill: VendorBillRecord): Promise<VendorBillPaymentRecord[]> {
    return this.tx.manager.getRepository(VendorBillPaymentRecord).find({
      where: { vendorBillId: bill.id, entityId: bill.entityId, livemode: bill.livemode },
      order: { paymentDate: 'ASC', id: 'ASC' },
    });
  }

  /** Inserts a payment with these values (its id and the caller's entity and mode among them) in the caller's transaction. */
  async insertPayment(values: QueryDeepPartialEntity<VendorBillPaymentRecord>): Promise<void> {
    await this.tx.transactional.getRepository(VendorBillPaymentRecord).insert(values);
  }
}
