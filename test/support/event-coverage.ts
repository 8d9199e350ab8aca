import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Config } from '@jest/types';
import { EVENT_CATALOG } from '#platform/events/event-catalog';
import { missingEventTypes } from '#platform/events/emitted-types';

/**
 * Catalog types that no e2e test emits yet; the check lets them be missing, and only them. Each
 * names why; the list only shrinks.
 */
export const PENDING_TYPES: readonly string[] = [];

/**
 * Whether this jest run runs the whole e2e project: only then can the check expect every
 * catalog type (a run of some files, some tests, or a shard sees a part). EVENT_COVERAGE=always
 * forces the check (to try it on a few files), EVENT_COVERAGE=off skips it outside CI (with
 * CI=true, as .ci/run sets, a whole run is always checked).
 */
export function isWholeE2eRun(config: Config.GlobalConfig): boolean {
  if (process.env.EVENT_COVERAGE === 'always') return true;
  if (process.env.EVENT_COVERAGE === 'off' && process.env.CI !== 'true') return false;
  const selected = projectsNamedBy('--selectProjects');
  const e2eSelected =
    (selected === null || selected.includes('e2e')) &&
    !(projectsNamedBy('--ignoreProjects') ?? []).includes('e2e');
  const patterns = config.testPathPatterns as unknown as { isSet?(): boolean; patterns?: string[] };
  const filtered =
    (typeof patterns?.isSet === 'function' ? patterns.isSet() : (patterns?.patterns?.length ?? 0) > 0) ||
    config.nonFlagArgs.length > 0 ||
    Boolean(config.testNamePattern) ||
    config.onlyChanged ||
    config.onlyFailures ||
    config.findRelatedTests ||
    config.lastCommit ||
    Boolean(config.changedSince) ||
    Boolean(config.shard) ||
    config.listTests;
  return e2eSelected && !filtered;
}

/** The project names given after `flag` on jest's command line (null when the flag is absent). */
function projectsNamedBy(flag: string): string[] | null {
  const at = process.argv.indexOf(flag);
  if (at < 0) return null;
  const names: string[] = [];
  for (const arg of process.argv.slice(at + 1)) {
    if (arg.startsWith('-')) break;
    names.push(arg);
  }
  return names;
}

/** Global setup: a run directory the test processes record emitted event types into. */
export function startRecordingEmittedTypes(): void {
  process.env.EVENT_COVERAGE_DIR = mkdtempSync(path.join(os.tmpdir(), 'erp-event-coverage-'));
}

/**
 * Global teardown: every catalog type must have been emitted by some test process of the run
 * (or be pending); throws, failing `npm test`, with the list of those that were not.
 */
export async function checkEmittedTypes(): Promise<void> {
  const dir = process.env.EVENT_COVERAGE_DIR;
  if (!dir) return;
  try {
    // Registers every context's event types with the catalog (loaded only when checking).
    await import('#contexts/vocabulary');
    const emitted = readdirSync(dir)
      .filter((name) => name.endsWith('.types'))
      .flatMap((name) => readFileSync(path.join(dir, name), 'utf8').split('\n'))
      .filter(Boolean);
    const missing = missingEventTypes(
      EVENT_CATALOG.map((t) => t.type),
      emitted,
      PENDING_TYPES,
    );
    if (missing.length > 0)
      throw new Error(
        `Event catalog coverage: ${missing.length} catalog type(s) were not emitted by any e2e test: ${missing.join(', ')}. ` +
          'Exercise the code path that emits each over HTTP in an e2e test.',
      );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
