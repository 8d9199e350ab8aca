import { transition, Transitions } from '#platform/domain/state-machine';
import { AccountingError, invalidState } from './accounting-error';

/** Fiscal years and accounting periods are either open (entries may be dated in them) or closed. */
export const PERIOD_STATUSES = ['open', 'closed'] as const;
export type PeriodStatus = (typeof PERIOD_STATUSES)[number];
export type PeriodAction = 'close' | 'reopen';

/** Periods and fiscal years alike: open --close--> closed, closed --reopen--> open. */
const TRANSITIONS: Transitions<PeriodStatus, PeriodAction> = {
  open: { close: 'closed' },
  closed: { reopen: 'open' },
};

/** The facts the period state machine needs. */
export interface PeriodState {
  name: string;
  status: string;
  /** Status of the fiscal year the period belongs to, if it belongs to one. */
  fiscalYear?: { name: string; status: string } | null;
  /** Journal entries of the period that are not final, by status (draft, pending_approval). */
  unfinishedEntries?: readonly { status: string; n: number }[];
}

/**
 * The accounting period state machine (docs/api-decisions.md, Accounting, "Ledger, entries, fiscal years and fixed assets"):
 *   open --close--> closed   (refused while the period holds drafts or entries pending approval)
 *   closed --reopen--> open  (refused while its fiscal year is closed)
 * Returns the next status, or throws 409 invalid_state naming the current status.
 */
export function periodTransition(action: PeriodAction, state: PeriodState): PeriodStatus {
  const next = transition(TRANSITIONS, state.status, action, (status, allowed) =>
    invalidState('accounting period', status, action, allowed),
  );
  if (action === 'close' && state.unfinishedEntries && state.unfinishedEntries.length > 0) {
    throw new AccountingError('invalid_state', {
      hint: `Accounting period ${state.name} holds ${state.unfinishedEntries.map((o) => `${o.n} ${o.status}`).join(' and ')} journal entries; post, approve, reject or void them first.`,
      details: { status: state.status },
    });
  }
  if (action === 'reopen' && state.fiscalYear?.status === 'closed') {
    throw new AccountingError('invalid_state', {
      hint: `Fiscal year ${state.fiscalYear.name} is closed; reopen it first.`,
      details: { status: 'closed' },
    });
  }
  return next;
}

/**
 * The fiscal year state machine: open --close--> closed (its open periods close with it, each
 * under the period rules), closed --reopen--> open (its periods stay as they are).
 */
export function fiscalYearTransition(action: PeriodAction, status: string): PeriodStatus {
  return transition(TRANSITIONS, status, action, (current, allowed) =>
    invalidState('fiscal year', current, action, allowed),
  );
}

/** The periods a fiscal year's close closes with it: its open ones, in the order given. */
export function periodsClosedWithYear<P extends { status: string }>(periods: readonly P[]): P[] {
  return periods.filter((p) => p.status === 'open');
}

/** Where an entry is dated: the date it falls on (absent when the period was named by id) and the request field. */
export interface PeriodUse {
  date?: string;
  param?: string;
}

/** The 422 period_closed for an entry dated in a closed period. */
export function periodClosed(period: { name: string }, use: PeriodUse = {}): AccountingError {
  return new AccountingError('period_closed', {
    param: use.param ?? 'entry_date',
    hint: `The accounting period ${period.name}${use.date ? ` covering ${use.date}` : ''} is closed.`,
  });
}

/**
 * The open-period rule: an entry is dated only in an open period. Returns the period covering the
 * entry's date, or throws 422 period_closed when no period covers it or the period is closed.
 */
export function openPeriod<P extends { name: string; status: string }>(
  period: P | null | undefined,
  use: PeriodUse = {},
): P {
  if (!period) {
    throw new AccountingError('period_closed', {
      param: use.param ?? 'entry_date',
      hint: `No accounting period covers ${use.date}.`,
    });
  }
  if (period.status !== 'open') throw periodClosed(period, use);
  return period;
}

/** Refuses an end date before the start date (param `end_date`). */
export function assertDateRange(startDate: string, endDate: string): void {
  if (endDate < startDate) {
    throw new AccountingError('parameter_invalid', {
      param: 'end_date',
      hint: 'end_date must not be before start_date.',
    });
  }
}
