/**
 * Loaded into the import benchmark's worker process (`node --require`): counts the statements the
 * process sends to PostgreSQL (every pg client's query() call, named or not) and, with
 * BENCH_STATEMENT_PROFILE=1, the time from sending each to its answer, by statement text. The
 * benchmark asks for the figures over the IPC channel ('statements' → {statements, profile}).
 */
import { Client } from 'pg';

interface Timing {
  count: number;
  ms: number;
}

let statements = 0;
const profile = new Map<string, Timing>();
const profiling = process.env.BENCH_STATEMENT_PROFILE === '1';

const textOf = (first: unknown): string => {
  const text = typeof first === 'string' ? first : ((first as { text?: string } | null)?.text ?? '');
  return text.replace(/\s+/g, ' ').trim().slice(0, 90);
};

const timed = (text: string, started: number) => () => {
  const entry = profile.get(text) ?? { count: 0, ms: 0 };
  entry.count++;
  entry.ms += performance.now() - started;
  profile.set(text, entry);
};

const original = Client.prototype.query as (...args: unknown[]) => unknown;
(Client.prototype as unknown as { query: (...args: unknown[]) => unknown }).query = function (
  this: Client,
  ...args: unknown[]
) {
  statements++;
  if (!profiling) return original.apply(this, args);
  const done = timed(textOf(args[0]), performance.now());
  const submitted = args[0] as { callback?: (...a: unknown[]) => void } | null;
  if (submitted && typeof submitted === 'object' && typeof submitted.callback === 'function') {
    const callback = submitted.callback;
    submitted.callback = (...a: unknown[]) => {
      done();
      callback(...a);
    };
    return original.apply(this, args);
  }
  const result = original.apply(this, args);
  if (result && typeof (result as Promise<unknown>).then === 'function')
    (result as Promise<unknown>).then(done, done);
  return result;
};

if (process.send) {
  process.on('message', (message) => {
    if (message !== 'statements') return;
    const top = [...profile.entries()]
      .sort((a, b) => b[1].ms - a[1].ms)
      .slice(0, 15)
      .map(([text, t]) => ({ text, count: t.count, ms: Math.round(t.ms) }));
    profile.clear();
    process.send!({ statements, profile: top });
  });
  // The channel must not keep the worker alive once it shuts down.
  process.channel?.unref();
}
