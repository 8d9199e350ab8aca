/** Calendar arithmetic on business days (`YYYY-MM-DD`, no time zone: the entity's calendar). */
export function addDays(day: string, days: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** One formatter per time zone: making an Intl.DateTimeFormat costs far more than using one. */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    // An unknown zone throws here (RangeError) and is not kept; the valid zones are a finite set.
    formatter = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/**
 * The last day worked out per time zone, for its quarter hour of UTC: since 1973 every zone's
 * offsets and their changes fall on whole quarter hours, so an instant's local date is the same
 * over its quarter hour (formatToParts costs far more than this lookup). Earlier instants (local
 * mean times, Liberia's -0:44:30) are worked out each time.
 */
const QUARTER_HOUR_MS = 15 * 60 * 1000;
const QUARTER_HOURS_SINCE = Date.UTC(1973, 0, 1);
const lastDays = new Map<string, { quarter: number; day: string }>();

/** The business day an instant falls on in a time zone (IANA name). */
export function dayInZone(at: Date, timeZone: string): string {
  const quarter = at.getTime() >= QUARTER_HOURS_SINCE ? Math.floor(at.getTime() / QUARTER_HOUR_MS) : NaN;
  const last = lastDays.get(timeZone);
  if (last && last.quarter === quarter) return last.day;
  const parts = formatterOf(timeZone).formatToParts(at);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  const day = `${get('year')}-${get('month')}-${get('day')}`;
  if (!Number.isNaN(quarter) && (lastDays.size < 1000 || lastDays.has(timeZone)))
    lastDays.set(timeZone, { quarter, day });
  return day;
}
