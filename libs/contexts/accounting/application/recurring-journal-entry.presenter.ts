import { RecurringJournalEntryRecord } from '../infrastructure/accounting.entities';
import { resourceTimestamps } from '#platform/http/resource-fields';

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
  ...resourceTimestamps(t),
});
