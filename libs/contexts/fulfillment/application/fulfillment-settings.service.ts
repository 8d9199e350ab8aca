import { Injectable } from '@nestjs/common';
import { money, toJsonNumber } from '#platform/domain/money';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { FulfillmentSettingsRecord } from '../infrastructure/fulfillment.entities';
import { FulfillmentSettingsRepository } from '../infrastructure/fulfillment-settings.repository';

const present = (s: FulfillmentSettingsRecord) => ({
  object: 'fulfillment_settings' as const,
  insurance_threshold: toJsonNumber(s.insuranceThreshold, 2),
  package_number_prefix: s.packageNumberPrefix,
  last_package_number: s.lastPackageNumber,
  livemode: s.livemode,
  updated_at: s.updatedAt.toISOString(),
});
export type FulfillmentSettingsResource = ReturnType<typeof present>;

/** Per entity and mode: the insurance threshold (insure every package whose value reaches it) and the package number prefix. */
@Injectable()
export class FulfillmentSettingsService {
  constructor(
    private readonly tx: TransactionHost,
    private readonly settings: FulfillmentSettingsRepository,
  ) {}

  async retrieve(): Promise<FulfillmentSettingsResource> {
    return present(await this.settings.current());
  }

  async update(changes: { insurance_threshold?: number | null; package_number_prefix?: string }) {
    return this.tx.run(async () => {
      const record = await this.settings.getForUpdate((await this.settings.current()).id);
      if (changes.insurance_threshold !== undefined)
        record.insuranceThreshold =
          changes.insurance_threshold === null ? null : money(changes.insurance_threshold);
      if (changes.package_number_prefix !== undefined)
        record.packageNumberPrefix = changes.package_number_prefix;
      return present(await this.settings.save(record));
    });
  }
}
