import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { money, toJsonNumber } from '#platform/persistence/money';
import { EntityProfiles } from '#platform/tenancy/entity-profiles';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { RequestContext } from '#platform/tenancy/request-context';
import { businessDay } from '../domain/calendar';
import { defaultEntryPrefix } from '../domain/journal-entry';
import { AccountingSettingsRecord } from '../infrastructure/accounting.entities';
import { AccountingSettingsRepository } from '../infrastructure/accounting-settings.repository';

export interface SettingsResource {
  object: 'accounting_settings';
  entity_id: string;
  livemode: boolean;
  timezone: string;
  current_business_day: string;
  approval_threshold: number | null;
  entry_number_prefix: string;
  updated_at: string;
}

/** Per entity and mode: approval threshold, entry-number prefix and the gapless entry counter. */
@Injectable()
export class AccountingSettingsService {
  constructor(
    private readonly tx: TransactionHost,
    private readonly profiles: EntityProfiles,
    private readonly settings: AccountingSettingsRepository,
  ) {}

  private ensure(): Promise<AccountingSettingsRecord> {
    return this.settings.ensure(defaultEntryPrefix(RequestContext.caller().entityCode));
  }

  async timezone(): Promise<string> {
    return (await this.profiles.current())?.timezone ?? 'UTC';
  }

  /** The entity's current business day (today in its time zone). */
  async currentBusinessDay(): Promise<string> {
    return businessDay(await this.timezone());
  }

  async approvalThreshold(): Promise<Decimal | null> {
    return (await this.ensure()).approvalThreshold;
  }

  async retrieve(): Promise<SettingsResource> {
    const settings = await this.ensure();
    const timezone = await this.timezone();
    return {
      object: 'accounting_settings',
      entity_id: settings.entityId,
      livemode: settings.livemode,
      timezone,
      current_business_day: businessDay(timezone),
      approval_threshold: toJsonNumber(settings.approvalThreshold),
      entry_number_prefix: settings.entryNumberPrefix,
      updated_at: settings.updatedAt.toISOString(),
    };
  }

  async update(changes: {
    approval_threshold?: number | null;
    entry_number_prefix?: string;
  }): Promise<SettingsResource> {
    return this.tx.run(async () => {
      const settings = await this.ensure();
      if (changes.approval_threshold !== undefined) {
        settings.approvalThreshold =
          changes.approval_threshold === null ? null : money(String(changes.approval_threshold));
      }
      if (changes.entry_number_prefix !== undefined) settings.entryNumberPrefix = changes.entry_number_prefix;
      await this.settings.save(settings);
      return this.retrieve();
    });
  }
}
