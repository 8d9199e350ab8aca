import Decimal from 'decimal.js';
import { money } from '#platform/domain/money';
import { ControlRole } from '../domain/ledger';
import { SourceType } from '../domain/source-types';
import type { NewEntry } from './journal-engine.service';

/** A posting line: the account by id or by the entity's control-account role. */
export type PostingLine = (
  { role: ControlRole; account_id?: never } | { account_id: string; role?: never }
) & {
  debit?: Decimal.Value;
  credit?: Decimal.Value;
  description?: string;
  location_id?: string;
  department_id?: string;
  class_id?: string;
  project_id?: string;
};

/**
 * A line for a signed amount: a debit when positive, a credit of its absolute value when
 * negative, none when zero (an amount that may flip side, such as a reversal under a rule).
 */
export function signedLine(
  target: { role: ControlRole } | { account_id: string },
  debitAmount: Decimal,
  description: string,
): PostingLine[] {
  if (debitAmount.isZero()) return [];
  const side = debitAmount.gt(0) ? { debit: debitAmount } : { credit: debitAmount.negated() };
  return [{ ...target, ...side, description } as PostingLine];
}

export interface PostingRequest {
  source_type: SourceType;
  source_id: string;
  source_module: string;
  entry_date: string;
  description: string;
  lines: PostingLine[];
  batch_id?: string;
  entry_type?: string;
  /**
   * The source document is created in the caller's transaction with a new id, so no entry can
   * exist for it yet: the duplicate-source check and its lock are skipped.
   */
  new_source?: boolean;
}

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
