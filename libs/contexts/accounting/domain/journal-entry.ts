import Decimal from 'decimal.js';
import { allowedFrom, transition, Transitions } from '#platform/domain/state-machine';
import { money } from '#platform/domain/money';
import { invalidState } from './accounting-error';

export const ENTRY_STATUSES = [
  'draft',
  'pending_approval',
  'posted',
  'reversed',
  'voided',
  'rejected',
] as const;
export type EntryStatus = (typeof ENTRY_STATUSES)[number];
export type ApprovalStatus = 'auto_approved' | 'pending_approval' | 'approved' | 'rejected';

export interface LineAmounts {
  debit: Decimal;
  credit: Decimal;
}

export type LineProblem = { index: number; field: 'debit_amount' | 'credit_amount'; reason: string };

/** Each line carries exactly one positive side with at most 4 decimals; null when the line is fine. */
export function lineProblem(line: LineAmounts, index: number): LineProblem | null {
  for (const [field, value] of [
    ['debit_amount', line.debit],
    ['credit_amount', line.credit],
  ] as const) {
    if (value.isNegative()) return { index, field, reason: 'must not be negative' };
    if (value.decimalPlaces() > 4) return { index, field, reason: 'has more than 4 decimal places' };
    if (value.abs().greaterThanOrEqualTo('1e15')) return { index, field, reason: 'is too large' };
  }
  if (line.debit.isZero() && line.credit.isZero())
    return { index, field: 'debit_amount', reason: 'a line needs a debit or a credit amount' };
  if (!line.debit.isZero() && !line.credit.isZero())
    return { index, field: 'credit_amount', reason: 'a line is either a debit or a credit' };
  return null;
}

export function totals(lines: readonly LineAmounts[]): { debit: Decimal; credit: Decimal } {
  return lines.reduce((acc, l) => ({ debit: acc.debit.plus(l.debit), credit: acc.credit.plus(l.credit) }), {
    debit: money(0),
    credit: money(0),
  });
}

/** Rule 1: debits equal credits exactly (decimal arithmetic, no tolerance). */
export const isBalanced = (lines: readonly LineAmounts[]): boolean => {
  const t = totals(lines);
  return t.debit.equals(t.credit);
};

/** The reversing lines: each debit becomes a credit of the same amount and vice versa. */
export const swapSides = <L extends LineAmounts>(lines: readonly L[]): L[] =>
  lines.map((l) => ({ ...l, debit: l.credit, credit: l.debit }));

/** Manual entries above the threshold wait for approval; system entries never do. */
export function needsApproval(totalDebit: Decimal, threshold: Decimal | null, manual: boolean): boolean {
  return manual && threshold !== null && totalDebit.greaterThan(threshold);
}

export type EntryAction = 'post' | 'approve' | 'reject' | 'void' | 'reverse' | 'update' | 'delete';

/** The moves of the table: the actions, with a post that waits for approval as `submit`. */
type EntryMove = EntryAction | 'submit';

/**
 * The journal entry's state machine: posting a draft that needs approval leads to
 * `pending_approval` (submit) instead of `posted`; update and delete leave a draft a draft
 * (delete removes it).
 */
const TRANSITIONS: Transitions<EntryStatus, EntryMove> = {
  draft: {
    post: 'posted',
    submit: 'pending_approval',
    void: 'voided',
    update: 'draft',
    delete: 'draft',
  },
  pending_approval: { approve: 'posted', reject: 'rejected', void: 'voided' },
  posted: { reverse: 'reversed' },
  reversed: {},
  voided: {},
  rejected: {},
};

/** The approval status each move sets; the others (void, reverse, update, delete) keep it. */
const APPROVAL: Partial<Record<EntryMove, ApprovalStatus>> = {
  post: 'auto_approved',
  submit: 'pending_approval',
  approve: 'approved',
  reject: 'rejected',
};

/** An entry's status with its approval status. */
export interface EntryState {
  status: EntryStatus;
  approvalStatus: ApprovalStatus | null;
}

/** The statuses from which an action may start (the 409 invalid_state hints name them). */
export const entryAllowedFrom = (action: EntryAction): EntryStatus[] => allowedFrom(TRANSITIONS, action);

/**
 * The state `action` leads the entry to from `from`, or 409 invalid_state naming the current
 * status and the statuses the action may start from.
 */
export function entryTransition(
  action: EntryAction,
  from: EntryState,
  options: { needsApproval?: boolean } = {},
): EntryState {
  const move: EntryMove = action === 'post' && options.needsApproval ? 'submit' : action;
  const status = transition(TRANSITIONS, from.status, move, (current) =>
    invalidState('journal entry', current, action, entryAllowedFrom(action)),
  );
  return { status, approvalStatus: APPROVAL[move] ?? from.approvalStatus };
}

/**
 * The state a new entry is written in: a draft when asked for one, else a draft posted at once
 * (waiting for approval when it needs it).
 */
export function newEntryState(requested: 'draft' | 'posted', needsApproval: boolean): EntryState {
  const draft: EntryState = { status: 'draft', approvalStatus: null };
  return requested === 'draft' ? draft : entryTransition('post', draft, { needsApproval });
}

export const defaultEntryPrefix = (entityCode: string): string => `${entityCode.toUpperCase()}-JE`;

/** A line of an entry, its account already resolved to an id. */
export interface EntryLine {
  accountId: string;
  debit: Decimal;
  credit: Decimal;
  description?: string | null;
  locationId?: string | null;
  departmentId?: string | null;
  classId?: string | null;
  projectId?: string | null;
}

/** What an entry says, independent of how it was stored: the fields a re-import is compared on. */
export interface EntryContent {
  entryDate: string;
  description: string | null;
  entryType: string;
  sourceType: string;
  lines: EntryLine[];
}

/** True when two entries carry the same date, texts, source type and lines (in order, amounts compared exactly). */
export function sameEntryContent(a: EntryContent, b: EntryContent): boolean {
  if (a.entryDate !== b.entryDate || (a.description ?? null) !== (b.description ?? null)) return false;
  if (a.entryType !== b.entryType || a.sourceType !== b.sourceType || a.lines.length !== b.lines.length)
    return false;
  return a.lines.every((l, i) => {
    const o = b.lines[i];
    return (
      l.accountId === o.accountId &&
      l.debit.equals(o.debit) &&
      l.credit.equals(o.credit) &&
      (l.description ?? null) === (o.description ?? null) &&
      (l.locationId ?? null) === (o.locationId ?? null) &&
      (l.departmentId ?? null) === (o.departmentId ?? null) &&
      (l.classId ?? null) === (o.classId ?? null) &&
      (l.projectId ?? null) === (o.projectId ?? null)
    );
  });
}
