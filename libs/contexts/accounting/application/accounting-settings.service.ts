import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { money, toJsonNumber } from '#platform/domain/money';
import { EntityProfiles } from '#platform/tenancy/entity-profiles';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { RequestContext } from '#platform/tenancy/request-context';
import { AccountingError } from '../domain/accounting-error';
import { businessDay } from '../domain/calendar';
import { defaultEntryPrefix } from '../domain/journal-entry';
import { AccountingSettingsRecord } from '../infrastructure/accounting.entities';
import { AccountingSettingsRepository } from '../infrastructure/accounting-settings.repository';

export const LATE_FEE_TYPES = ['none', 'flat', 'percent'] as const;
export const LATE_FEE_FREQUENCIES = ['per_invoice', 'per_period'] as const;

/** The entity's late-fee policy, as collections applies it to overdue invoices. */
export interface LateFeePolicy {
  type: (typeof LATE_FEE_TYPES)[number];
  /** The flat amount, or the percent of the amount due. */
  amount: Decimal | null;
  minimum: Decimal | null;
  graceDays: number;
  frequency: (typeof LATE_FEE_FREQUENCIES)[number];
  periodDays: number;
}

export interface LateFeePolicyChanges {
  late_fee_type?: LateFeePolicy['type'];
  late_fee_amount?: number | null;
  late_fee_minimum?: number | null;
  late_fee_grace_days?: number;
  late_fee_frequency?: LateFeePolicy['frequency'];
  late_fee_period_days?: number;
}

export interface SettingsResource {
  object: 'accounting_settings';
  entity_id: string;
  livemode: boolean;
  timezone: string;
  current_business_day: string;
  approval_threshold: number | null;
  entry_number_prefix: string;
  late_fee_type: LateFeePolicy['type'];
  late_fee_amount: number | null;
  late_fee_minimum: number | null;
  late_fee_grace_days: number;
  late_fee_frequency: LateFeePolicy['frequency'];
  late_fee_period_days: number;
  updated_at: string;
}

/**
 * Per entity and mode: approval threshold, entry-number prefix, the gapless entry counter and
 * the late-fee policy of overdue invoices.
 */
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

  /** The late-fee policy collections applies to the calling entity's overdue invoices. */
  async lateFeePolicy(): Promise<LateFeePolicy> {
    const s = await this.ensure();
    return {
      type: s.lateFeeType as LateFeePolicy['type'],
      amount: s.lateFeeAmount,
      minimum: s.lateFeeMinimum,
      graceDays: s.lateFeeGraceDays,
      frequency: s.lateFeeFrequency as LateFeePolicy['frequency'],
      periodDays: s.lateFeePeriodDays,
    };
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
      late_fee_type: settings.lateFeeType as LateFeePolicy['type'],
      late_fee_amount: toJsonNumber(settings.lateFeeAmount),
      late_fee_minimum: toJsonNumber(settings.lateFeeMinimum),
      late_fee_grace_days: settings.lateFeeGraceDays,
      late_fee_frequency: settings.lateFeeFrequency as LateFeePolicy['frequency'],
      late_fee_period_days: settings.lateFeePeriodDays,
      updated_at: settings.updatedAt.toISOString(),
    };
  }

  async update(
    changes: {
      approval_threshold?: number | null;
      entry_number_prefix?: string;
    } & LateFeePolicyChanges,
  ): Promise<SettingsResource> {
    return this.tx.run(async () => {
      const settings = await this.ensure();
      if (changes.approval_threshold !== undefined) {
        settings.approvalThreshold =
          changes.approval_threshold === null ? null : money(String(changes.approval_threshold));
      }
      if (changes.entry_number_prefix !== undefined) settings.entryNumberPrefix = changes.entry_number_prefix;
      const amount = (v: number | null) => (v === null ? null : money(String(v)));
      if (changes.late_fee_type !== undefined) settings.lateFeeType = changes.late_fee_type;
      if (changes.late_fee_amount !== undefined) settings.lateFeeAmount = amount(changes.late_fee_amount);
      if (changes.late_fee_minimum !== undefined) settings.lateFeeMinimum = amount(changes.late_fee_minimum);
      if (changes.late_fee_grace_days !== undefined) settings.lateFeeGraceDays = changes.late_fee_grace_days;
      if (changes.late_fee_frequency !== undefined) settings.lateFeeFrequency = changes.late_fee_frequency;
      if (changes.late_fee_period_days !== undefined)
        settings.lateFeePeriodDays = changes.late_fee_period_days;
      if (settings.lateFeeType !== 'none' && settings.lateFeeAmount === null)
        throw new AccountingError('parameter_invalid', {
          param: 'late_fee_amount',
          hint: `A late_fee_type of '${settings.lateFeeType}' needs a late_fee_amount.`,
        });
      if (settings.lateFeeType === 'percent' && settings.lateFeeAmount?.gt(100))
        throw new AccountingError('parameter_invalid', {
          param: 'late_fee_amount',
          hint: 'A percent late fee is at most 100 (percent of the amount due).',
        });
      await this.settings.save(settings);
      return this.retrieve();
    });
  }
}
