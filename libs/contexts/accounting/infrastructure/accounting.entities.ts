import Decimal from 'decimal.js';
import { Column, Entity } from 'typeorm';
import { MoneyColumn, TenantRecord } from '#platform/persistence/columns';

@Entity({ name: 'accounting_settings' })
export class AccountingSettingsRecord extends TenantRecord {
  @MoneyColumn({ name: 'approval_threshold', nullable: true }) approvalThreshold: Decimal | null;
  @Column('text', { name: 'entry_number_prefix' }) entryNumberPrefix: string;
  @Column('bigint', { name: 'last_entry_number' }) lastEntryNumber: string;
  @Column('text', { name: 'late_fee_type' }) lateFeeType: string;
  @MoneyColumn({ name: 'late_fee_amount', nullable: true }) lateFeeAmount: Decimal | null;
  @MoneyColumn({ name: 'late_fee_minimum', nullable: true }) lateFeeMinimum: Decimal | null;
  @Column('integer', { name: 'late_fee_grace_days' }) lateFeeGraceDays: number;
  @Column('text', { name: 'late_fee_frequency' }) lateFeeFrequency: string;
  @Column('integer', { name: 'late_fee_period_days' }) lateFeePeriodDays: number;
}

@Entity({ name: 'ledger_accounts' })
export class LedgerAccountRecord extends TenantRecord {
  @Column('text') code: string;
  @Column('text') name: string;
  @Column('text') type: string;
  @Column('text', { name: 'normal_balance' }) normalBalance: string;
  @Column('boolean') postable: boolean;
  @Column('uuid', { name: 'parent_id', nullable: true }) parentId: string | null;
  @Column('text', { name: 'control_role', nullable: true }) controlRole: string | null;
  @Column('text', { nullable: true }) description: string | null;
  @Column('boolean') active: boolean;
  /** A bank (or cash) account: bank transactions may be imported into it. */
  @Column('boolean', { name: 'is_bank' }) isBank: boolean;
}

@Entity({ name: 'fiscal_years' })
export class FiscalYearRecord extends TenantRecord {
  @Column('text') name: string;
  @Column('date', { name: 'start_date' }) startDate: string;
  @Column('date', { name: 'end_date' }) endDate: string;
  @Column('text') status: string;
  @Column('timestamptz', { name: 'closed_at', nullable: true }) closedAt: Date | null;
}

@Entity({ name: 'accounting_periods' })
export class AccountingPeriodRecord extends TenantRecord {
  @Column('text') name: string;
  @Column('uuid', { name: 'fiscal_year_id', nullable: true }) fiscalYearId: string | null;
  @Column('date', { name: 'start_date' }) startDate: string;
  @Column('date', { name: 'end_date' }) endDate: string;
  @Column('text') status: string;
  @Column('timestamptz', { name: 'closed_at', nullable: true }) closedAt: Date | null;
}

@Entity({ name: 'journal_entries' })
export class JournalEntryRecord extends TenantRecord {
  @Column('uuid', { name: 'period_id' }) periodId: string;
  @Column('text', { name: 'entry_number' }) entryNumber: string;
  @Column('date', { name: 'entry_date' }) entryDate: string;
  @Column('text', { name: 'entry_type' }) entryType: string;
  @Column('text') status: string;
  @Column('text', { name: 'approval_status', nullable: true }) approvalStatus: string | null;
  @Column('text', { nullable: true }) description: string | null;
  @Column('text', { name: 'source_type' }) sourceType: string;
  @Column('text', { name: 'source_id', nullable: true }) sourceId: string | null;
  @Column('text', { name: 'source_module', nullable: true }) sourceModule: string | null;
  @Column('boolean', { name: 'is_reversing' }) isReversing: boolean;
  @Column('uuid', { name: 'reversed_by_id', nullable: true }) reversedById: string | null;
  @Column('uuid', { name: 'reversal_of_id', nullable: true }) reversalOfId: string | null;
  @Column('uuid', { name: 'reverse_in_period_id', nullable: true }) reverseInPeriodId: string | null;
  @Column('uuid', { name: 'batch_id', nullable: true }) batchId: string | null;
  @MoneyColumn({ name: 'total_debit' }) totalDebit: Decimal;
  @MoneyColumn({ name: 'total_credit' }) totalCredit: Decimal;
  @Column('timestamptz', { name: 'posted_at', nullable: true }) postedAt: Date | null;
  @Column('timestamptz', { name: 'approved_at', nullable: true }) approvedAt: Date | null;
  @Column('timestamptz', { name: 'rejected_at', nullable: true }) rejectedAt: Date | null;
  @Column('uuid', { name: 'approved_by', nullable: true }) approvedBy: string | null;
  @Column('uuid', { name: 'rejected_by', nullable: true }) rejectedBy: string | null;
  @Column('text', { name: 'rejection_reason', nullable: true }) rejectionReason: string | null;
  @Column('text', { name: 'idempotency_key', nullable: true }) idempotencyKey: string | null;
  @Column('uuid', { name: 'created_by', nullable: true }) createdBy: string | null;
  @Column('text', { name: 'created_by_name', nullable: true }) createdByName: string | null;
}

@Entity({ name: 'journal_lines' })
export class JournalLineRecord extends TenantRecord {
  @Column('uuid', { name: 'journal_entry_id' }) journalEntryId: string;
  @Column('integer', { name: 'line_number' }) lineNumber: number;
  @Column('uuid', { name: 'account_id' }) accountId: string;
  @MoneyColumn({ name: 'debit_amount' }) debitAmount: Decimal;
  @MoneyColumn({ name: 'credit_amount' }) creditAmount: Decimal;
  @Column('text', { nullable: true }) description: string | null;
  @Column('uuid', { name: 'location_id', nullable: true }) locationId: string | null;
  @Column('uuid', { name: 'department_id', nullable: true }) departmentId: string | null;
  @Column('uuid', { name: 'class_id', nullable: true }) classId: string | null;
  @Column('uuid', { name: 'project_id', nullable: true }) projectId: string | null;
  @Column('boolean') reconciled: boolean;
  @Column('timestamptz', { name: 'reconciled_at', nullable: true }) reconciledAt: Date | null;
}

/** A template line as stored in the template's jsonb column (amounts as 4-decimal strings). */
export interface TemplateLine {
  account_id: string;
  debit_amount: string;
  credit_amount: string;
  description: string | null;
  location_id: string | null;
  department_id: string | null;
  class_id: string | null;
  project_id: string | null;
}

@Entity({ name: 'recurring_journal_entries' })
export class RecurringJournalEntryRecord extends TenantRecord {
  @Column('text') name: string;
  @Column('text', { nullable: true }) description: string | null;
  @Column('text', { name: 'entry_type' }) entryType: string;
  @Column('text') frequency: string;
  @Column('date', { name: 'next_run_date' }) nextRunDate: string;
  /** Day of the month (1-31) monthly, quarterly and yearly runs keep, clamped to short months. */
  @Column('smallint', { name: 'anchor_day' }) anchorDay: number;
  @Column('date', { name: 'end_date', nullable: true }) endDate: string | null;
  @Column('boolean') active: boolean;
  @Column('jsonb') lines: TemplateLine[];
  @Column('date', { name: 'last_run_date', nullable: true }) lastRunDate: string | null;
  @Column('uuid', { name: 'last_journal_entry_id', nullable: true }) lastJournalEntryId: string | null;
}

@Entity({ name: 'recurring_journal_entry_runs' })
export class RecurringRunRecord extends TenantRecord {
  @Column('uuid', { name: 'template_id' }) templateId: string;
  @Column('date', { name: 'run_date' }) runDate: string;
  @Column('uuid', { name: 'journal_entry_id' }) journalEntryId: string;
  @Column('text') trigger: string;
}

@Entity({ name: 'fixed_assets' })
export class FixedAssetRecord extends TenantRecord {
  @Column('text') name: string;
  @MoneyColumn() cost: Decimal;
  @Column('date', { name: 'acquisition_date' }) acquisitionDate: string;
  @Column('integer', { name: 'useful_life_months' }) usefulLifeMonths: number;
  @MoneyColumn({ name: 'salvage_value' }) salvageValue: Decimal;
  @Column('text', { name: 'depreciation_method' }) depreciationMethod: string;
  @Column('uuid', { name: 'asset_account_id' }) assetAccountId: string;
  @Column('uuid', { name: 'depreciation_account_id' }) depreciationAccountId: string;
  @Column('uuid', { name: 'expense_account_id' }) expenseAccountId: string;
  @MoneyColumn({ name: 'accumulated_depreciation' }) accumulatedDepreciation: Decimal;
  @Column('integer', { name: 'months_depreciated' }) monthsDepreciated: number;
  @Column('date', { name: 'depreciated_through', nullable: true }) depreciatedThrough: string | null;
  @MoneyColumn({ name: 'total_impaired' }) totalImpaired: Decimal;
  @MoneyColumn({ name: 'total_recovered' }) totalRecovered: Decimal;
  @MoneyColumn({ name: 'revaluation_total' }) revaluationTotal: Decimal;
}

@Entity({ name: 'fixed_asset_depreciations' })
export class FixedAssetDepreciationRecord extends TenantRecord {
  @Column('uuid', { name: 'fixed_asset_id' }) fixedAssetId: string;
  @Column('date', { name: 'through_date' }) throughDate: string;
  @Column('integer') months: number;
  @MoneyColumn() amount: Decimal;
  @Column('uuid', { name: 'journal_entry_id' }) journalEntryId: string;
}

@Entity({ name: 'fixed_asset_events' })
export class FixedAssetEventRecord extends TenantRecord {
  @Column('uuid', { name: 'fixed_asset_id' }) fixedAssetId: string;
  @Column('text', { name: 'event_type' }) eventType: string;
  @Column('date', { name: 'event_date' }) eventDate: string;
  @MoneyColumn() amount: Decimal;
  @MoneyColumn({ name: 'previous_net_book_value' }) previousNetBookValue: Decimal;
  @MoneyColumn({ name: 'new_net_book_value' }) newNetBookValue: Decimal;
  @MoneyColumn({ name: 'fair_value_at_event', nullable: true }) fairValueAtEvent: Decimal | null;
  @Column('text', { nullable: true }) reason: string | null;
  @Column('uuid', { name: 'journal_entry_id', nullable: true }) journalEntryId: string | null;
  @Column('text', { name: 'created_by_name', nullable: true }) createdByName: string | null;
}

/** One application of a matched deposit, as stored on the bank transaction. */
export interface StoredApplication {
  invoice_id: string;
  amount: string;
}

@Entity({ name: 'bank_transactions' })
export class BankTransactionRecord extends TenantRecord {
  @Column('uuid', { name: 'bank_account_id' }) bankAccountId: string;
  @Column('text') type: string;
  @MoneyColumn() amount: Decimal;
  @Column('text') currency: string;
  @Column('date', { name: 'transaction_date' }) transactionDate: string;
  @Column('text', { nullable: true }) description: string | null;
  @Column('text', { nullable: true }) reference: string | null;
  @Column('text') status: string;
  @Column('timestamptz', { name: 'matched_at', nullable: true }) matchedAt: Date | null;
  @Column('uuid', { name: 'customer_account_id', nullable: true }) customerAccountId: string | null;
  @Column('text', { name: 'payment_id', nullable: true }) paymentId: string | null;
  @Column('uuid', { name: 'journal_entry_id', nullable: true }) journalEntryId: string | null;
  @MoneyColumn({ name: 'applied_amount', nullable: true }) appliedAmount: Decimal | null;
  @MoneyColumn({ name: 'unapplied_amount', nullable: true }) unappliedAmount: Decimal | null;
  @Column('text', { name: 'route_unapplied', nullable: true }) routeUnapplied: string | null;
  @Column('uuid', { name: 'reconciliation_id', nullable: true }) reconciliationId: string | null;
  @Column('text', { name: 'payment_method', nullable: true }) paymentMethod: string | null;
  @Column('jsonb', { nullable: true }) applications: StoredApplication[] | null;
}

@Entity({ name: 'vendor_bills' })
export class VendorBillRecord extends TenantRecord {
  @Column('text', { name: 'vendor_name' }) vendorName: string;
  @Column('text', { name: 'bill_number', nullable: true }) billNumber: string | null;
  @Column('date', { name: 'bill_date' }) billDate: string;
  @Column('date', { name: 'due_date', nullable: true }) dueDate: string | null;
  @Column('text') currency: string;
  @MoneyColumn() amount: Decimal;
  @MoneyColumn({ name: 'amount_paid' }) amountPaid: Decimal;
  @Column('text') status: string;
  @Column('uuid', { name: 'debit_account_id' }) debitAccountId: string;
  @Column('text', { nullable: true }) description: string | null;
  @Column('uuid', { name: 'journal_entry_id' }) journalEntryId: string;
  @Column('date', { name: 'voided_on', nullable: true }) voidedOn: string | null;
  @Column('uuid', { name: 'void_journal_entry_id', nullable: true }) voidJournalEntryId: string | null;
}

@Entity({ name: 'vendor_bill_payments' })
export class VendorBillPaymentRecord extends TenantRecord {
  @Column('uuid', { name: 'vendor_bill_id' }) vendorBillId: string;
  @MoneyColumn() amount: Decimal;
  @Column('date', { name: 'payment_date' }) paymentDate: string;
  @Column('uuid', { name: 'bank_account_id' }) bankAccountId: string;
  @Column('text', { nullable: true }) reference: string | null;
  @Column('uuid', { name: 'journal_entry_id' }) journalEntryId: string;
}

export const ACCOUNTING_ENTITIES = [
  AccountingSettingsRecord,
  LedgerAccountRecord,
  FiscalYearRecord,
  AccountingPeriodRecord,
  JournalEntryRecord,
  JournalLineRecord,
  RecurringJournalEntryRecord,
  RecurringRunRecord,
  FixedAssetRecord,
  FixedAssetDepreciationRecord,
  FixedAssetEventRecord,
  BankTransactionRecord,
  VendorBillRecord,
  VendorBillPaymentRecord,
];
