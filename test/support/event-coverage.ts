import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Config } from '@jest/types';
import { EVENT_CATALOG } from '#platform/events/event-catalog';
import {
  EVENT_COVERAGE_DIR_ENV,
  parseCoverageLines,
  type CoverageRecord,
} from '#platform/events/event-coverage';
import { describeEventCoverage, eventCoverageVerdict } from '#platform/events/event-coverage-verdict';

/**
 * Catalog types that no product route or job of the e2e tests commits yet; the check lets them be
 * missing, and only them. Each names why; the list only shrinks.
 */
export const PENDING_TYPES: readonly string[] = [];

/**
 * Catalog types that product work commits but that no e2e test asserts with expectEvent yet:
 * their tests check them with plain expectations on the outbox (types in order, a payload read
 * by hand) or not at all. A type leaves the list when a test that caused it over HTTP or through
 * its job asserts it with expectEvent; the list only shrinks.
 */
export const UNASSERTED_TYPES: readonly string[] = [];

/**
 * Whether this jest run runs the whole e2e project: only then can the check expect every
 * catalog type (a run of some files, some tests, or a shard sees a part). EVENT_COVERAGE=always
 * forces the check (to try it on a few files); EVENT_COVERAGE=off skips it outside CI. With
 * CI=true (as .ci/run sets) no variable turns it off: a whole run is always checked.
 */
export function isWholeE2eRun(config: Config.GlobalConfig, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.EVENT_COVERAGE === 'always') return true;
  if (env.EVENT_COVERAGE === 'off' && env.CI !== 'true') return false;
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

/** The run's coverage directory and whether the teardown checks it (kept in the jest process, not the environment). */
interface CoverageRun {
  dir: string;
  check: boolean;
}
const RUN = Symbol.for('erp.eventCoverageRun');
const runOf = () => (globalThis as { [RUN]?: CoverageRun })[RUN];

/**
 * Global setup: a fresh run directory that the test processes record committed events and
 * assertions into (libs/platform/events/event-coverage.ts), on every run, so that expectEvent
 * can tell a product event from a harness's in any run; the teardown checks it on a whole e2e run.
 */
export function startEventCoverage(config: Config.GlobalConfig): void {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'erp-event-coverage-'));
  process.env[EVENT_COVERAGE_DIR_ENV] = dir;
  (globalThis as { [RUN]?: CoverageRun })[RUN] = { dir, check: isWholeE2eRun(config) };
}

/** The records of every `<pid>.<kind>` file of `dir`. */
export function readCoverage(dir: string, kind: 'emitted' | 'asserted'): CoverageRecord[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith(`.${kind}`))
    .flatMap((name) => parseCoverageLines(readFileSync(path.join(dir, name), 'utf8')));
}

/**
 * Global teardown: on a whole e2e run, every catalog type must have been committed by a product
 * route or job and asserted by a test (or be listed above); throws, failing `npm test`, naming
 * those that were not and why.
 */
export async function checkEventCoverage(): Promise<void> {
  const run = runOf();
  if (!run) return;
  try {
    if (!run.check) return;
    // Registers every context's event types with the catalog (loaded only when checking).
    await import('#contexts/vocabulary');
    const verdict = eventCoverageVerdict(
      EVENT_CATALOG.map((t) => t.type),
      readCoverage(run.dir, 'emitted'),
      readCoverage(run.dir, 'asserted'),
      { notEmitted: PENDING_TYPES, notAsserted: UNASSERTED_TYPES },
    );
    const failure = describeEventCoverage(verdict);
    if (failure) throw new Error(failure);
  } finally {
    rmSync(run.dir, { recursive: true, force: true });
  }
}
