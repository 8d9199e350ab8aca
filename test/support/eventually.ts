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

/**
 * Polls `check` until it returns true or `timeoutMs` passes; resolves to the last answer, for
 * `expect(await eventually(...)).toBe(true)`. For changes that reach another API instance
 * through NOTIFY, delivered at the changing commit.
 */
export async function eventually(
  check: () => Promise<boolean>,
  timeoutMs = 1000,
  stepMs = 20,
): Promise<boolean> {
  return (await poll(check, timeoutMs, stepMs)) === true;
}

/** For a queued job that works through many rows (a bulk import) on a loaded machine. */
export const LONG_WAIT: PollOptions = { timeoutMs: 60_000, everyMs: 100, label: 'a long-running job' };
