/** The contract's schedule: delays before attempts 2..7 (attempt 1 is immediate). */
export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [
  60_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  12 * 3_600_000,
  24 * 3_600_000,
];

/** Parses `WEBHOOK_RETRY_DELAYS_MS` ("1000,1000,1000"); unset or empty gives the contract's schedule. */
export function parseRetryDelays(setting: string | undefined): number[] {
  if (setting === undefined || setting.trim() === '') return [...DEFAULT_RETRY_DELAYS_MS];
  const delays = setting.split(',').map((part) => Number(part.trim()));
  if (delays.some((d) => !Number.isInteger(d) || d < 0)) {
    throw new Error(
      `WEBHOOK_RETRY_DELAYS_MS must be comma-separated non-negative integers, got '${setting}'`,
    );
  }
  return delays;
}

/** The receiver's answer to one attempt, or the transport failure. */
export interface AttemptResult {
  /** HTTP status, or null when no response arrived (timeout, refused, DNS, blocked target). */
  status: number | null;
  /** Retry-After in milliseconds, when the receiver sent a usable one. */
  retryAfterMs?: number;
}

export type AttemptDecision =
  | { outcome: 'succeeded' }
  | { outcome: 'retry'; delayMs: number }
  | { outcome: 'failed'; reason: 'exhausted' | 'gone' };

export const JITTER = 0.2;

/**
 * What follows attempt number `attempt` (1-based): success on 2xx (3xx is a failure),
 * permanent failure on 410 Gone or when the last attempt failed, else a retry after the
 * scheduled delay plus up to 20% jitter (jitter only delays: no attempt goes out before the
 * schedule), or after Retry-After capped at twice the scheduled delay.
 * `lastAttempt` overrides the schedule's length (a manual resend allows exactly one attempt).
 */
export function decideAfterAttempt(
  result: AttemptResult,
  attempt: number,
  delays: readonly number[],
  options: { random?: () => number; lastAttempt?: number | null } = {},
): AttemptDecision {
  if (result.status !== null && result.status >= 200 && result.status < 300) return { outcome: 'succeeded' };
  if (result.status === 410) return { outcome: 'failed', reason: 'gone' };
  const lastAttempt = options.lastAttempt ?? delays.length + 1;
  if (attempt >= lastAttempt) return { outcome: 'failed', reason: 'exhausted' };
  const scheduled = delays[attempt - 1];
  if (result.retryAfterMs !== undefined)
    return { outcome: 'retry', delayMs: Math.min(result.retryAfterMs, 2 * scheduled) };
  const random = options.random ?? Math.random;
  return { outcome: 'retry', delayMs: Math.round(scheduled * (1 + JITTER * random())) };
}

/** Retry-After as milliseconds: delta-seconds or an HTTP date; undefined when absent or unusable. */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** Consecutive permanent failures after which an endpoint is disabled. */
export const AUTO_DISABLE_THRESHOLD = 10;
