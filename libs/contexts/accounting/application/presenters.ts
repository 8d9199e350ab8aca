import { toJsonNumber } from '../../../platform/persistence/money';
import { maxRecoverable, netBookValue } from '../domain/fixed-asset';
import {
  AccountingPeriodRecord,
  FiscalYearRecord,
  FixedAssetEventRecord,
  FixedAssetRecord,
  JournalEntryRecord,
  JournalLineRecord,
  LedgerAccountRecord,
  RecurringJournalEntryRecord,
} from '../infrastructure/accounting.entities';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export const toLedgerAccount = (a: LedgerAccountRecord) => ({
  id: a.id,
  object: 'ledger_account' as const,
  code: a.code,
  name: a.name,
  type: a.type,
  normal_balance: a.normalBalance,
  postable: a.postable,
  parent_id: a.parentId,
  control_role: a.controlRole,
  description: a.description,
  active: a.active,
  is_bank: a.isBank,
  livemode: a.livemode,
  created_at: a.createdAt.toISOString(),
  updated_at: a.updatedAt.toISOString(),
});

export const toFiscalYear = (y: FiscalYearRecord) => ({
  id: y.id,
  object: 'fiscal_year' as const,
  name: y.name,
  start_date: y.startDate,
  end_date: y.endDate,
  status: y.status,
  closed_at: iso(y.closedAt),
  livemode: y.livemode,
  created_at: y.createdAt.toISOString(),
  updated_at: y.updatedAt.toISOString(),
});

export const toPeriod = (p: AccountingPeriodRecord) => ({
  id: p.id,
  object: 'accounting_period' as const,
  name: p.name,
  fiscal_year_id: p.fiscalYearId,
  start_date: p.startDate,
  end_date: p.endDate,
  status: p.status,
  closed_at: iso(p.closedAt),
  livemode: p.livemode,
  created_at: p.createdAt.toISOString(),
  updated_at: p.updatedAt.toISOString(),
});

export const toJournalLine = (l: JournalLineRecord) => ({
  id: l.id,
  object: 'journal_line' as const,
  journal_entry_id: l.journalEntryId,
  line_number: l.lineNumber,
  account_id: l.accountId,
  debit_amount: toJsonNumber(l.debitAmount),
  credit_amount: toJsonNumber(l.creditAmount),
  description: l.description,
  location_id: l.locationId,
  department_id: l.departmentId,
  class_id: l.classId,
  project_id: l.projectId,
  reconciled: l.reconciled,
  reconciled_at: iso(l.reconciledAt),
  created_at: l.createdAt.toISOString(),
});

export type JournalLineResource = ReturnType<typeof toJournalLine>;

/** The journal entry; `lines` only when given (single retrieval), never on lists. */
export function toJournalEntry(e: JournalEntryRecord, lines?: JournalLineRecord[]) {
  const resource = {
    id: e.id,
    object: 'journal_entry' as const,
    entity_id: e.entityId,
    period_id: e.periodId,
    entry_number: e.entryNumber,
    entry_date: e.entryDate,
    entry_type: e.entryType,
    status: e.status,
    approval_status: e.approvalStatus,
    description: e.description,
    source_type: e.sourceType,
    source_id: e.sourceId,
    source_module: e.sourceModule,
    is_reversing: e.isReversing,
    reversed_by_id: e.reversedById,
    reversal_of_id: e.reversalOfId,
    reverse_in_period_id: e.reverseInPeriodId,
    batch_id: e.batchId,
    total_debit: toJsonNumber(e.totalDebit),
    total_credit: toJsonNumber(e.totalCredit),
    posted_at: iso(e.postedAt),
    approved_at: iso(e.approvedAt),
    rejected_at: iso(e.rejectedAt),
    approved_by: e.approvedBy,
    rejected_by: e.rejectedBy,
    rejection_reason: e.rejectionReason,
    idempotency_key: e.idempotencyKey,
    created_by: e.createdBy,
    created_by_name: e.createdByName,
    livemode: e.livemode,
    created_at: e.createdAt.toISOString(),
    updated_at: e.updatedAt.toISOString(),
  };
  return lines
    ? { ...resource, lines: [...lines].sort((a, b) => a.lineNumber - b.lineNumber).map(toJournalLine) }
    : resource;
}

export type JournalEntryResource = ReturnType<typeof toJournalEntry> & { lines?: JournalLineResource[] };

export const toRecurringTemplate = (t: RecurringJournalEntryRecord) => ({
  id: t.id,
  object: 'recurring_journal_entry' as const,
  name: t.name,
  description: t.description,
  entry_type: t.entryType,
  frequency: t.frequency,
  next_run_date: t.nextRunDate,
  end_date: t.endDate,
  active: t.active,
  lines: t.lines.map((l, i) => ({
    line_number: i + 1,
    account_id: l.account_id,
    debit_amount: Number(l.debit_amount),
    credit_amount: Number(l.credit_amount),
    description: l.description,
    location_id: l.location_id,
    department_id: l.department_id,
    class_id: l.class_id,
    project_id: l.project_id,
  })),
  last_run_date: t.lastRunDate,
  last_journal_entry_id: t.lastJournalEntryId,
  livemode: t.livemode,
  created_at: t.createdAt.toISOString(),
  updated_at: t.updatedAt.toISOString(),
});

export const toFixedAsset = (a: FixedAssetRecord) => ({
  id: a.id,
  object: 'fixed_asset' as const,
  name: a.name,
  cost: toJsonNumber(a.cost),
  acquisition_date: a.acquisitionDate,
  useful_life_months: a.usefulLifeMonths,
  salvage_value: toJsonNumber(a.salvageValue),
  depreciation_method: a.depreciationMethod,
  asset_account_id: a.assetAccountId,
  depreciation_account_id: a.depreciationAccountId,
  expense_account_id: a.expenseAccountId,
  accumulated_depreciation: toJsonNumber(a.accumulatedDepreciation),
  months_depreciated: a.monthsDepreciated,
  depreciated_through: a.depreciatedThrough,
  total_impaired: toJsonNumber(a.totalImpaired),
  total_recovered: toJsonNumber(a.totalRecovered),
  revaluation_total: toJsonNumber(a.revaluationTotal),
  max_recoverable: toJsonNumber(maxRecoverable(a)),
  net_book_value: toJsonNumber(netBookValue(a)),
  livemode: a.livemode,
  created_at: a.createdAt.toISOString(),
  updated_at: a.updatedAt.toISOString(),
});

export const toAssetEvent = (e: FixedAssetEventRecord) => ({
  id: e.id,
  object: 'fixed_asset_event' as const,
  fixed_asset_id: e.fixedAssetId,
  event_type: e.eventType,
  event_date: e.eventDate,
  amount: toJsonNumber(e.amount),
  previous_net_book_value: toJsonNumber(e.previousNetBookValue),
  new_net_book_value: toJsonNumber(e.newNetBookValue),
  fair_value_at_event: toJsonNumber(e.fairValueAtEvent),
  reason: e.reason,
  journal_entry_id: e.journalEntryId,
  created_by_name: e.createdByName,
  created_at: e.createdAt.toISOString(),
});
