import {
  decideAfterAttempt,
  DEFAULT_RETRY_DELAYS_MS,
  parseRetryAfter,
  parseRetryDelays,
} from './retry-schedule';

/** The smallest jitter draw: the attempt goes out exactly on schedule. */
const onTime = () => 0;

describe('retry schedule', () => {
  it('is 7 attempts: immediate, +1 min, +5 min, +30 min, +2 h, +12 h, +24 h', () => {
    expect(parseRetryDelays(undefined)).toEqual([
      60_000, 300_000, 1_800_000, 7_200_000, 43_200_000, 86_400_000,
    ]);
    expect(parseRetryDelays('')).toEqual([...DEFAULT_RETRY_DELAYS_MS]);
    expect(parseRetryDelays('100, 200,300')).toEqual([100, 200, 300]);
    expect(() => parseRetryDelays('1,x')).toThrow(/WEBHOOK_RETRY_DELAYS_MS/);
  });

  it('succeeds on 2xx only; 3xx, 4xx, 5xx and transport errors retry', () => {
    expect(decideAfterAttempt({ status: 204 }, 1, DEFAULT_RETRY_DELAYS_MS)).toEqual({ outcome: 'succeeded' });
    for (const status of [301, 302, 400, 429, 500, null]) {
      expect(decideAfterAttempt({ status }, 1, DEFAULT_RETRY_DELAYS_MS, { random: onTime })).toEqual({
        outcome: 'retry',
        delayMs: 60_000,
      });
    }
    expect(decideAfterAttempt({ status: 500 }, 6, DEFAULT_RETRY_DELAYS_MS, { random: onTime })).toEqual({
      outcome: 'retry',
      delayMs: 86_400_000,
    });
  });

  it('fails permanently after the 7th attempt or on 410 Gone', () => {
    expect(decideAfterAttempt({ status: 500 }, 7, DEFAULT_RETRY_DELAYS_MS)).toEqual({
      outcome: 'failed',
      reason: 'exhausted',
    });
    expect(decideAfterAttempt({ status: 410 }, 1, DEFAULT_RETRY_DELAYS_MS)).toEqual({
      outcome: 'failed',
      reason: 'gone',
    });
    expect(decideAfterAttempt({ status: 500 }, 8, DEFAULT_RETRY_DELAYS_MS, { lastAttempt: 8 })).toEqual({
      outcome: 'failed',
      reason: 'exhausted',
    });
    expect(decideAfterAttempt({ status: 500 }, 3, [100, 100])).toEqual({
      outcome: 'failed',
      reason: 'exhausted',
    });
  });

  it('jitters by delaying up to 20%, never sending before the schedule', () => {
    expect(decideAfterAttempt({ status: 500 }, 2, DEFAULT_RETRY_DELAYS_MS, { random: () => 0 })).toEqual({
      outcome: 'retry',
      delayMs: 300_000,
    });
    expect(decideAfterAttempt({ status: 500 }, 2, DEFAULT_RETRY_DELAYS_MS, { random: () => 0.5 })).toEqual({
      outcome: 'retry',
      delayMs: 330_000,
    });
    expect(decideAfterAttempt({ status: 500 }, 2, DEFAULT_RETRY_DELAYS_MS, { random: () => 1 })).toEqual({
      outcome: 'retry',
      delayMs: 360_000,
    });
    // Every attempt of the schedule, at the smallest draw: exactly on time, not earlier.
    const earliest = DEFAULT_RETRY_DELAYS_MS.map((_, i) => {
      const decision = decideAfterAttempt({ status: null }, i + 1, DEFAULT_RETRY_DELAYS_MS, {
        random: () => 0,
      });
      return decision.outcome === 'retry' ? decision.delayMs : -1;
    });
    expect(earliest).toEqual([...DEFAULT_RETRY_DELAYS_MS]);
  });

  it('honours Retry-After capped at twice the scheduled delay', () => {
    expect(decideAfterAttempt({ status: 503, retryAfterMs: 90_000 }, 1, DEFAULT_RETRY_DELAYS_MS)).toEqual({
      outcome: 'retry',
      delayMs: 90_000,
    });
    expect(decideAfterAttempt({ status: 429, retryAfterMs: 3_600_000 }, 1, DEFAULT_RETRY_DELAYS_MS)).toEqual({
      outcome: 'retry',
      delayMs: 120_000,
    });
    expect(parseRetryAfter('120')).toBe(120_000);
    expect(parseRetryAfter(new Date(10_000 + 30_000).toUTCString(), 10_000)).toBe(30_000);
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter(null)).toBeUndefined();
  });
});
