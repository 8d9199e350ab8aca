import { Injectable } from '@nestjs/common';
import { newId } from '#platform/persistence/ids';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { lateSetting, WriteStatement } from '#platform/persistence/transaction-host';
import { RequestContext } from '#platform/tenancy/request-context';
import { FulfillmentSettingsRecord } from './fulfillment.entities';

/** The per-entity fulfillment settings row: package numbering and the insurance threshold. */
@Injectable()
export class FulfillmentSettingsRepository extends TenantRepository.of(
  FulfillmentSettingsRecord,
  'fulfillment settings',
) {
  /** The settings row, created on first use with the entity code as prefix. */
  async current(): Promise<FulfillmentSettingsRecord> {
    const { entityId, livemode, entityCode } = RequestContext.caller();
    const [found] = await this.plainRows('true', []);
    if (found) return found;
    await this.tx.manager.query(
      `INSERT INTO fulfillment_settings (id, entity_id, livemode, package_number_prefix) VALUES ($1, $2, $3, $4)
       ON CONFLICT (entity_id, livemode) DO NOTHING`,
      [newId(), entityId, livemode, entityCode.toUpperCase()],
    );
    return (await this.repo.findOneBy({ entityId, livemode }))!;
  }

  /**
   * The statement taking the entity's next package number, formatted `<prefix>-PKG-<n>` with n
   * zero-padded to six digits, as late value `name` (TransactionHost.takeAtCommit: it sets the
   * transaction-local setting, and answers the number for packageNumberOf). Sent with COMMIT, it
   * locks the counter row only while the commit's statements run; numbers stay gapless (a
   * rolled-back package gives its number back).
   */
  takePackageNumberStatement(name: string): WriteStatement {
    const { entityId, livemode } = RequestContext.caller();
    return {
      sql: `WITH counter AS (
         UPDATE fulfillment_settings SET last_package_number = last_package_number + 1, updated_at = now()
          WHERE entity_id = $1 AND livemode = $2
          RETURNING package_number_prefix || '-PKG-' || lpad(last_package_number::text, greatest(6, length(last_package_number::text)), '0') AS package_number)
       SELECT package_number, set_config($3, package_number, true) FROM counter`,
      params: [entityId, livemode, lateSetting(name)],
    };
  }

  /** The number takePackageNumberStatement took (its rows). */
  packageNumberOf(rows: readonly Record<string, unknown>[]): string {
    const [row] = rows as { package_number: string }[];
    if (!row) throw new Error('No package number was taken: the fulfillment settings row is missing');
    return row.package_number;
  }
}
