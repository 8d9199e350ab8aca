import { Injectable } from '@nestjs/common';
import { newId } from '#platform/persistence/ids';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { RequestContext } from '#platform/tenancy/request-context';
import { FulfillmentSettingsRecord } from './fulfillment.entities';

/** The per-entity fulfillment settings row: package numbering and the insurance threshold. */
@Injectable()
export class FulfillmentSettingsRepository extends TenantRepository<FulfillmentSettingsRecord> {
  constructor(tx: TransactionHost) {
    super(tx, FulfillmentSettingsRecord, 'fulfillment settings');
  }

  /** The settings row, created on first use with the entity code as prefix. */
  async current(): Promise<FulfillmentSettingsRecord> {
    const { entityId, livemode, entityCode } = RequestContext.caller();
    const found = await this.repo.findOneBy({ entityId, livemode });
    if (found) return found;
    await this.tx.manager.query(
      `INSERT INTO fulfillment_settings (id, entity_id, livemode, package_number_prefix) VALUES ($1, $2, $3, $4)
       ON CONFLICT (entity_id, livemode) DO NOTHING`,
      [newId(), entityId, livemode, entityCode.toUpperCase()],
    );
    return (await this.repo.findOneBy({ entityId, livemode }))!;
  }

  /**
   * Takes the next package number in the caller's transaction, whose current() created the
   * settings row if needed: the counter row stays locked until commit, so numbers are gapless (a
   * rolled-back package gives its number back). Callers take it as late as they can.
   */
  async nextPackageNumber(): Promise<{ n: number; prefix: string }> {
    const { entityId, livemode } = RequestContext.caller();
    type Row = { last_package_number: string; package_number_prefix: string };
    // An UPDATE ... RETURNING answers [rows, affected count] through TypeORM's PostgreSQL driver.
    const [rows] = (await this.tx.transactional.query(
      `UPDATE fulfillment_settings SET last_package_number = last_package_number + 1, updated_at = now()
       WHERE entity_id = $1 AND livemode = $2 RETURNING last_package_number, package_number_prefix`,
      [entityId, livemode],
    )) as [Row[], number];
    const row = rows[0];
    return { n: Number(row.last_package_number), prefix: row.package_number_prefix };
  }
}
