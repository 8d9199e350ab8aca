import { toJsonNumber } from '#platform/domain/money';
import { JournalEntryRecord, JournalLineRecord } from '../infrastructure/accounting.entities';
import { isoOrNull, resourceTimestamps } from '#platform/http/resource-fields';
import { journalEntryFields } from '../infrastructure/journal-entry-fields';

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
  reconciled_at: isoOrNull(l.reconciledAt),
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
    ...journalEntryFields(e),
    reversed_by_id: e.reversedById,
    reversal_of_id: e.reversalOfId,
    reverse_in_period_id: e.reverseInPeriodId,
    batch_id: e.batchId,
    total_debit: toJsonNumber(e.totalDebit),
    total_credit: toJsonNumber(e.totalCredit),
    posted_at: isoOrNull(e.postedAt),
    approved_at: isoOrNull(e.approvedAt),
    rejected_at: isoOrNull(e.rejectedAt),
    approved_by: e.approvedBy,
    rejected_by: e.rejectedBy,
    rejection_reason: e.rejectionReason,
    idempotency_key: e.idempotencyKey,
    created_by: e.createdBy,
    created_by_name: e.createdByName,
    ...resourceTimestamps(e),
  };
  return lines
    ? { ...resource, lines: [...lines].sort((a, b) => a.lineNumber - b.lineNumber).map(toJournalLine) }
    : resource;
}

export type JournalEntryResource = ReturnType<typeof toJournalEntry> & { lines?: JournalLineResource[] };
