import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { money } from '#platform/domain/money';
import { newId } from '#platform/persistence/ids';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import type { WriteStatement } from '#platform/persistence/transaction-host';
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
   * Takes the entity's next package number, `<prefix>-PKG-<n>` with n zero-padded to at least six
   * digits, by one statement that commits on its own (and creates the settings row on first use),
   * and answers it with the entity's insurance threshold from the same row. The counter row is
   * locked only while that statement runs, so packages of one entity do not wait for each other's
   * transactions; a package whose creation then fails leaves a gap in the numbers. Called before
   * the creation's transaction opens; inside a caller's open transaction (the QA seed's) it is one
   * of its statements.
   */
  async takePackageNumber(): Promise<PackageNumber> {
    const { sql, params } = this.packageNumberStatement();
    const [row] = (await this.tx.manager.query(sql, params)) as PackageNumberRow[];
    return packageNumberOf(row);
  }

  /**
   * The statement of takePackageNumber(), with its parameters ($1 to $4): it answers one row,
   * `package_number` and `insurance_threshold` (text), read by packageNumberOf().
   */
  packageNumberStatement(): WriteStatement {
    const { entityId, livemode, entityCode } = RequestContext.caller();
    return {
      sql: `INSERT INTO fulfillment_settings AS s (id, entity_id, livemode, package_number_prefix, last_package_number)
       VALUES ($1, $2, $3, $4, 1)
       ON CONFLICT (entity_id, livemode) DO UPDATE
         SET last_package_number = s.last_package_number + 1, updated_at = now()
       RETURNING s.package_number_prefix || '-PKG-' || lpad(s.last_package_number::text, greatest(6, length(s.last_package_number::text)), '0') AS package_number,
         s.insurance_threshold::text AS insurance_threshold`,
      params: [newId(), entityId, livemode, entityCode.toUpperCase()],
    };
  }
}

/** A package number taken, with the entity's insurance threshold. */
export interface PackageNumber {
  packageNumber: string;
  insuranceThreshold: Decimal | null;
}

/** The answer row of the package number's statement. */
export interface PackageNumberRow {
  package_number: string;
  insurance_threshold: string | null;
}

export const packageNumberOf = (row: PackageNumberRow): PackageNumber => ({
  packageNumber: row.package_number,
  insuranceThreshold: row.insurance_threshold === null ? null : money(row.insurance_threshold),
});
