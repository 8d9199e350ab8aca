import { JournalEntryRecord } from './accounting.entities';

/**
 * The fields of a journal entry, as stored, that its API resource and the row the writer inserts
 * both carry under the same snake_case names.
 */
export const journalEntryFields = (e: JournalEntryRecord) => ({
  entry_date: e.entryDate,
  entry_type: e.entryType,
  status: e.status,
  approval_status: e.approvalStatus,
  description: e.description,
  source_type: e.sourceType,
  source_id: e.sourceId,
  source_module: e.sourceModule,
  is_reversing: e.isReversing,
});
