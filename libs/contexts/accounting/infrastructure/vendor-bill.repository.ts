import { Injectable } from '@nestjs/common';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { VendorBillRecord } from './accounting.entities';

@Injectable()
export class VendorBillRepository extends TenantRepository<VendorBillRecord> {
  constructor(tx: TransactionHost) {
    super(tx, VendorBillRecord, 'vendor bill');
  }

  /** Bills dated by `asOf`, less those voided by then, less payments made by then. */
  async openPayablesBalance(asOf: string): Promise<string | null> {
    const { entityId, livemode } = this.scope();
    const rows: { balance: string | null }[] = await this.tx.manager.query(
      `SELECT
         (SELECT coalesce(sum(amount), 0) FROM vendor_bills
            WHERE entity_id = $1 AND livemode = $2 AND bill_date <= $3 AND (voided_on IS NULL OR voided_on > $3))
       - (SELECT coalesce(sum(p.amount), 0) FROM vendor_bill_payments p
            WHERE p.entity_id = $1 AND p.livemode = $2 AND p.payment_date <= $3) AS balance`,
      [entityId, livemode, asOf],
    );
    return rows[0]?.balance ?? null;
  }
}
