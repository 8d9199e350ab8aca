import { money } from '#platform/domain/money';
import type { NewEntry } from './journal-engine.service';
import type { PostingRequest } from './ledger-posting.service';

/** The journal entry a system posting asks for; a line naming a role gets its account from the engine's facts query. */
export function postingEntry(request: PostingRequest): NewEntry {
  return {
    entryDate: request.entry_date,
    description: request.description,
    entryType: request.entry_type ?? 'system',
    sourceType: request.source_type,
    sourceId: request.source_id,
    sourceModule: request.source_module,
    batchId: request.batch_id ?? null,
    status: 'posted',
    manual: false,
    lines: request.lines.map((l) => ({
      accountId: l.role ? '' : l.account_id,
      debit: money(l.debit ?? 0),
      credit: money(l.credit ?? 0),
      description: l.description ?? null,
      locationId: l.location_id ?? null,
      departmentId: l.department_id ?? null,
      classId: l.class_id ?? null,
      projectId: l.project_id ?? null,
    })),
    controlRoles: request.lines.map((l) => l.role),
  };
}
