import { Injectable } from '@nestjs/common';
import { DeepPartial } from 'typeorm';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { listFilters } from '#platform/persistence/list-filters';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { VendorBillRecord } from './accounting.entities';

@Injectable()
export class VendorBillRepository extends TenantRepository.of(VendorBillRecord, 'vendor bill') {
  /** A page of bills, filtered by status. */
  list(query: ListQueryDto & { status?: string }, url: string) {
    return this.page(query, { url }, listFilters(query, { equal: ['status'] }));
  }

  /** Inserts a bill with these values (its id and the caller's entity and mode among them) in the caller's transaction. */
  async insertBill(values: DeepPartial<VendorBillRecord>): Promise<void> {
    const repo = this.tx.transactional.getRepository(VendorBillRecord);
    await repo.insert(repo.create(values));
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
