import { appendFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Coverage of the event catalog by a test run: when `EVENT_COVERAGE_DIR` is set (the e2e global
 * setup sets it for a whole run), every process that builds an outbox row appends each event type
 * the first time it builds one to `<dir>/<pid>.types`; the global teardown compares the union with
 * the catalog. Unset (production, partial test runs), recording costs one environment read.
 */
const recorded = new Set<string>();

export function recordEmittedType(type: string): void {
  const dir = process.env.EVENT_COVERAGE_DIR;
  if (!dir || recorded.has(type)) return;
  recorded.add(type);
  appendFileSync(path.join(dir, `${process.pid}.types`), `${type}\n`);
}

/** The catalog types that were not emitted and are not listed as pending, in catalog order. */
export function missingEventTypes(
  catalog: readonly string[],
  emitted: Iterable<string>,
  pending: readonly string[] = [],
): string[] {
  const seen = new Set(emitted);
  return catalog.filter((type) => !seen.has(type) && !pending.includes(type));
}
