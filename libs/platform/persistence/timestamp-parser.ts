import { types } from 'pg';

const ZERO = 48;
const isDigit = (c: number) => c >= ZERO && c <= ZERO + 9;

/**
 * A `timestamptz` as PostgreSQL writes it in its ISO date style (`2026-11-26 06:13:41.123456+00`,
 * offsets `+05`, `+05:30`, `-03`), read into a Date without regular expressions or intermediate
 * strings: every row of every list carries two of them, and the driver's general parser
 * allocated an eighth of what a list request allocates. Anything else (years before 1000 or after
 * 9999, BC, infinity, an offset with seconds) goes to `fallback`, the driver's own parser.
 * Fractions of a millisecond are dropped, as the driver's parser drops them.
 */
export function parseTimestamptz(text: string, fallback: (text: string) => unknown): unknown {
  const length = text.length;
  if (
    length < 22 ||
    text.charCodeAt(4) !== 45 || // -
    text.charCodeAt(7) !== 45 ||
    text.charCodeAt(10) !== 32 || // space
    text.charCodeAt(13) !== 58 || // :
    text.charCodeAt(16) !== 58
  )
    return fallback(text);
  for (const i of DIGIT_POSITIONS) if (!isDigit(text.charCodeAt(i))) return fallback(text);
  const two = (i: number) => (text.charCodeAt(i) - ZERO) * 10 + text.charCodeAt(i + 1) - ZERO;
  const year = two(0) * 100 + two(2);
  if (year < 1000) return fallback(text);
  let i = 19;
  let millis = 0;
  if (text.charCodeAt(i) === 46) {
    // .ffffff: the first three digits are the milliseconds.
    i++;
    let digits = 0;
    while (i < length && isDigit(text.charCodeAt(i))) {
      if (digits < 3) millis = millis * 10 + text.charCodeAt(i) - ZERO;
      digits++;
      i++;
    }
    if (digits === 0) return fallback(text);
    for (; digits < 3; digits++) millis *= 10;
  }
  const sign = text.charCodeAt(i);
  if ((sign !== 43 && sign !== 45) || i + 3 > length) return fallback(text);
  if (!isDigit(text.charCodeAt(i + 1)) || !isDigit(text.charCodeAt(i + 2))) return fallback(text);
  let offsetMinutes = two(i + 1) * 60;
  i += 3;
  if (i < length) {
    if (
      text.charCodeAt(i) !== 58 ||
      i + 3 !== length ||
      !isDigit(text.charCodeAt(i + 1)) ||
      !isDigit(text.charCodeAt(i + 2))
    )
      return fallback(text);
    offsetMinutes += two(i + 1);
  }
  const utc = Date.UTC(year, two(5) - 1, two(8), two(11), two(14), two(17), millis);
  return new Date(utc - (sign === 43 ? 1 : -1) * offsetMinutes * 60_000);
}

const DIGIT_POSITIONS = [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18];

const TIMESTAMPTZ = 1184;

/** Makes the driver read `timestamptz` values with parseTimestamptz (once per process). */
export function useFastTimestampParser(): void {
  const fallback = types.getTypeParser(TIMESTAMPTZ, 'text') as (text: string) => unknown;
  if ((fallback as { fast?: boolean }).fast) return;
  const parser = Object.assign((text: string) => parseTimestamptz(text, fallback), { fast: true });
  types.setTypeParser(TIMESTAMPTZ, 'text', parser);
}
