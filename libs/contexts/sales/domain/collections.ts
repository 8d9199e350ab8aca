import Decimal from 'decimal.js';
import { money } from '#platform/domain/money';

/** `collection_status` of an issued invoice: `current` until it is marked overdue, again once nothing is due. */
export const COLLECTION_STATUSES = ['current', 'overdue'] as const;

/** The entity's late-fee policy (its accounting settings). */
export interface LateFeeTerms {
  type: 'none' | 'flat' | 'percent';
  amount: Decimal | null;
  minimum: Decimal | null;
  graceDays: number;
  frequency: 'per_invoice' | 'per_period';
  periodDays: number;
}

const DAY_MS = 86_400_000;
const dayNumber = (day: string): number => Date.parse(`${day}T00:00:00Z`) / DAY_MS;

/** `day` (YYYY-MM-DD) plus `days` calendar days. */
export function addDays(day: string, days: number): string {
  return new Date((dayNumber(day) + days) * DAY_MS).toISOString().slice(0, 10);
}

/** The due date of an invoice issued on `issueDay` under net `netDays` terms. */
export const dueDateOf = (issueDay: string, netDays: number): string => addDays(issueDay, netDays);

/** An invoice is overdue from the day after its due date (days in the entity's time zone). */
export const isPastDue = (dueDate: string, today: string): boolean => dueDate < today;

/**
 * How many late fees an invoice due on `dueDate` should have been charged by `today`: none until
 * the grace days have passed; then one per invoice, or one per started period of `periodDays`.
 */
export function lateFeesDue(terms: LateFeeTerms, dueDate: string, today: string): number {
  if (terms.type === 'none') return 0;
  const daysLate = dayNumber(today) - dayNumber(dueDate);
  if (daysLate <= terms.graceDays) return 0;
  if (terms.frequency === 'per_invoice') return 1;
  return Math.floor((daysLate - terms.graceDays - 1) / terms.periodDays) + 1;
}

/**
 * One late fee on an invoice with `amountDue` left: the flat amount, or the percent of the amount
 * due rounded half-up to cents; never below the minimum.
 */
export function lateFeeAmount(terms: LateFeeTerms, amountDue: Decimal): Decimal {
  if (terms.type === 'none' || terms.amount === null) return money(0);
  const base =
    terms.type === 'flat'
      ? terms.amount
      : amountDue.times(terms.amount).dividedBy(100).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
  const fee = terms.minimum !== null && base.lt(terms.minimum) ? terms.minimum : base;
  return fee.toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
}
