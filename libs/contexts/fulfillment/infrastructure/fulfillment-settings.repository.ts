import { Injectable } from '@nestjs/common';
import { newId } from '#platform/persistence/ids';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { TransactionHost, WriteStatement } from '#platform/persistence/transaction-host';
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
   * The statement giving a package inserted with a placeholder number the entity's next package
   * number, formatted `<prefix>-PKG-<n>` with n zero-padded to six digits (sent right behind the
   * package's INSERT; packageNumberOf reads its answer): the counter row is locked from there to
   * the caller's commit, so numbers are gapless (a rolled-back package gives its number back) and
   * the caller takes it as late as it can.
   */
  numberPackageStatement(packageId: string): WriteStatement {
    const { entityId, livemode } = RequestContext.caller();
    return {
      sql: `WITH counter AS (
         UPDATE fulfillment_settings SET last_package_number = last_package_number + 1, updated_at = now()
          WHERE entity_id = $1 AND livemode = $2
          RETURNING package_number_prefix || '-PKG-' || lpad(last_package_number::text, greatest(6, length(last_package_number::text)), '0') AS package_number)
       UPDATE packages p SET package_number = counter.package_number
         FROM counter WHERE p.id = $3 AND p.entity_id = $1 AND p.livemode = $2
       RETURNING p.package_number`,
      params: [entityId, livemode, packageId],
    };
  }

  /** The number numberPackageStatement gave the package (its rows). */
  packageNumberOf(packageId: string, rows: readonly Record<string, unknown>[]): string {
    const [row] = rows as { package_number: string }[];
    if (!row) throw new Error(`Package ${packageId} was not inserted before its number was taken`);
    return row.package_number;
  }
}
