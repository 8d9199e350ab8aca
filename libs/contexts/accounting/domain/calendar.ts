import { CALENDAR_DATE_PATTERN } from '#platform/http/dto-fields';
import { addDays, dayInZone } from '#platform/tenancy/business-day';

/** Calendar arithmetic on `YYYY-MM-DD` dates (no time zones: dates are business days). */
export const DATE_PATTERN = CALENDAR_DATE_PATTERN;

const fromUtc = (d: Date) => d.toISOString().slice(0, 10);

export { addDays };

/** Adds months, clamping to the month's last day (Jan 31 + 1 month = Feb 28/29). */
export function addMonths(date: string, months: number): string {
  const [y, m, day] = date.split('-').map(Number);
  const total = y * 12 + (m - 1) + months;
  const year = Math.floor(total / 12);
  const month = total % 12;
  const last = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return fromUtc(new Date(Date.UTC(year, month, Math.min(day, last))));
}

/** The day of the month of a `YYYY-MM-DD` date (1-31). */
export const dayOfMonth = (date: string): number => Number(date.slice(8, 10));

export const lastDayOfMonth = (date: string): string => addDays(addMonths(`${date.slice(0, 7)}-01`, 1), -1);

/** Whole months from `start` to `end` (Jan 15 -> Feb 14 is 0, -> Feb 15 is 1). */
export function wholeMonthsBetween(start: string, end: string): number {
  if (end < start) return 0;
  const [sy, sm] = start.split('-').map(Number);
  const [ey, em] = end.split('-').map(Number);
  let months = (ey - sy) * 12 + (em - sm);
  if (addMonths(start, months) > end) months -= 1;
  return Math.max(0, months);
}

export const FREQUENCIES = ['daily', 'weekly', 'monthly', 'quarterly', 'yearly'] as const;
export type Frequency = (typeof FREQUENCIES)[number];

/**
 * The occurrence after `date`. Monthly, quarterly and yearly schedules keep their day of the
 * month `anchorDay` (1-31, the template's first run date's day; `date`'s own day when not given),
 * clamped to each month's length: an anchor of 31 runs on 2026-01-31, 02-28, 03-31, 04-30.
 */
export function nextOccurrence(date: string, frequency: Frequency, anchorDay?: number): string {
  switch (frequency) {
    case 'daily':
      return addDays(date, 1);
    case 'weekly':
      return addDays(date, 7);
    case 'monthly':
      return addMonthsOnDay(date, 1, anchorDay);
    case 'quarterly':
      return addMonthsOnDay(date, 3, anchorDay);
    case 'yearly':
      return addMonthsOnDay(date, 12, anchorDay);
  }
}

/** `months` after `date`'s month, on day `day` (default: `date`'s day) clamped to that month's length. */
function addMonthsOnDay(date: string, months: number, day = dayOfMonth(date)): string {
  const target = addMonths(`${date.slice(0, 7)}-01`, months);
  const last = dayOfMonth(lastDayOfMonth(target));
  return `${target.slice(0, 8)}${String(Math.min(day, last)).padStart(2, '0')}`;
}

/** Today's date in an IANA time zone: the entity's current business day. */
export const businessDay = (timezone: string, now: Date = new Date()): string => dayInZone(now, timezone);

/**
 * The latest business day any entity can be in at `now`: the date in the time zone furthest
 * ahead of UTC (UTC+14). A sweep over every entity reads up to it, then checks each entity's own day.
 */
export const latestBusinessDay = (now: Date = new Date()): string => businessDay('Pacific/Kiritimati', now);
