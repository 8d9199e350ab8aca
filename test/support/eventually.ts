/** How long to poll, how often, and what to name in the timeout message. */
export interface PollOptions {
  timeoutMs?: number;
  everyMs?: number;
  label?: string;
}

type Truthy<T> = Exclude<T, false | 0 | '' | null | undefined>;

async function poll<T>(check: () => Promise<T> | T, timeoutMs: number, everyMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/**
 * Polls `check` until it returns a truthy value and resolves to that value; rejects naming
 * `label` once `timeoutMs` passes. The one way a test waits for work done elsewhere (a queued
 * job, the dispatcher, another instance): by the condition, never by a fixed sleep.
 */
export async function waitFor<T>(
  check: () => Promise<T> | T,
  { timeoutMs = 20_000, everyMs = 50, label = 'condition' }: PollOptions = {},
): Promise<Truthy<T>> {
  const value = await poll(check, timeoutMs, everyMs);
  if (!value) throw new Error(`timed out after ${timeoutMs} ms waiting for ${label}`);
  return value as Truthy<T>;
}

/** What a check waited for, for its timeout message: its label, or its own source text. */
const describeCheck = (check: () => unknown, label: string | undefined): string =>
  label ?? String(check).replace(/\s+/g, ' ').slice(0, 200);

/**
 * Polls `check` until it returns true; resolves to true, for `expect(await eventually(...)).toBe(true)`.
 * Rejects once `timeoutMs` (10 s by default: generous on a loaded machine, and a passing check
 * returns as soon as it passes) goes by, naming what it waited for (`label`, or the check's source).
 * For changes that reach another API instance through NOTIFY, delivered at the changing commit.
 */
export async function eventually(
  check: () => Promise<boolean>,
  timeout: number | PollOptions = {},
  stepMs = 20,
): Promise<boolean> {
  const options = typeof timeout === 'number' ? { timeoutMs: timeout, everyMs: stepMs } : timeout;
  const { timeoutMs = 10_000, everyMs = stepMs } = options;
  if ((await poll(check, timeoutMs, everyMs)) === true) return true;
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${describeCheck(check, options.label)}`);
}

/** For a queued job that works through many rows (a bulk import) on a loaded machine. */
export const LONG_WAIT: PollOptions = { timeoutMs: 60_000, everyMs: 100, label: 'a long-running job' };
