import Decimal from 'decimal.js';
import { money } from '#platform/persistence/money';

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

/** The statuses from which an action may start, for 409 invalid_state hints. */
export const ALLOWED_FROM: Record<
  'post' | 'approve' | 'reject' | 'void' | 'reverse' | 'update' | 'delete',
  readonly EntryStatus[]
> = {
  post: ['draft'],
  approve: ['pending_approval'],
  reject: ['pending_approval'],
  void: ['draft', 'pending_approval'],
  reverse: ['posted'],
  update: ['draft'],
  delete: ['draft'],
};

export type EntryAction = keyof typeof ALLOWED_FROM;

/** An entry's status with its approval status. */
export interface EntryState {
  status: EntryStatus;
  approvalStatus: ApprovalStatus | null;
}

/**
 * The journal entry's state machine: the state `action` leads to from `from`, or null when the
 * action is not allowed there (409 invalid_state, with ALLOWED_FROM for the hint). Posting a
 * draft that needs approval leads to `pending_approval` instead of `posted`; voiding and
 * reversing keep the approval status; update and delete leave a draft a draft (delete removes it).
 */
export function transitionEntry(
  action: EntryAction,
  from: EntryState,
  options: { needsApproval?: boolean } = {},
): EntryState | null {
  if (!ALLOWED_FROM[action].includes(from.status)) return null;
  switch (action) {
    case 'post':
      return options.needsApproval
        ? { status: 'pending_approval', approvalStatus: 'pending_approval' }
        : { status: 'posted', approvalStatus: 'auto_approved' };
    case 'approve':
      return { status: 'posted', approvalStatus: 'approved' };
    case 'reject':
      return { status: 'rejected', approvalStatus: 'rejected' };
    case 'void':
      return { status: 'voided', approvalStatus: from.approvalStatus };
    case 'reverse':
      return { status: 'reversed', approvalStatus: from.approvalStatus };
    case 'update':
    case 'delete':
      return { ...from };
  }
}

/** `QA1-JE` + 7 -> `QA1-JE-000007`. */
export const formatEntryNumber = (prefix: string, n: number | string): string =>
  `${prefix}-${String(n).padStart(6, '0')}`;

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
