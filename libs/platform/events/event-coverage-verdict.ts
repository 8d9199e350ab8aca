import type { CoverageRecord } from './event-coverage';

/** What a whole test run's event coverage lacks (event-coverage.ts), each list in catalog order. */
export interface EventCoverageVerdict {
  /** Committed by no work at all. */
  notEmitted: string[];
  /** Committed only outside product work (a harness, the seed, a service a test called), with those origins. */
  outsideProductOnly: string[];
  /** Committed by product work, but no test asserted such an event (expectEvent). */
  notAsserted: string[];
}

/** Types a run may leave uncovered for now, each list meant to shrink to nothing. */
export interface CoverageAllowances {
  /** May be committed by no product work. */
  notEmitted?: readonly string[];
  /** May be committed by product work without a test asserting it. */
  notAsserted?: readonly string[];
}

/**
 * Compares a run's records with the catalog: a type is covered when product work committed it
 * and a test asserted one of the events product work committed (an asserted record with an
 * origin). A record outside the catalog is ignored.
 */
export function eventCoverageVerdict(
  catalog: readonly string[],
  emitted: readonly CoverageRecord[],
  asserted: readonly CoverageRecord[],
  allowances: CoverageAllowances = {},
): EventCoverageVerdict {
  const byProduct = new Set(emitted.filter((r) => r.origin !== '').map((r) => r.type));
  const outside = new Set(emitted.filter((r) => r.origin === '').map((r) => r.type));
  const assertedTypes = new Set(asserted.filter((r) => r.origin !== '').map((r) => r.type));
  const mayMissEmission = new Set(allowances.notEmitted ?? []);
  const mayMissAssertion = new Set(allowances.notAsserted ?? []);
  const verdict: EventCoverageVerdict = { notEmitted: [], outsideProductOnly: [], notAsserted: [] };
  for (const type of catalog) {
    if (!byProduct.has(type)) {
      if (mayMissEmission.has(type)) continue;
      (outside.has(type) ? verdict.outsideProductOnly : verdict.notEmitted).push(type);
    } else if (!assertedTypes.has(type) && !mayMissAssertion.has(type)) {
      verdict.notAsserted.push(type);
    }
  }
  return verdict;
}

/** The failure message of a verdict; null when nothing is missing. */
export function describeEventCoverage(verdict: EventCoverageVerdict): string | null {
  const parts: string[] = [];
  if (verdict.outsideProductOnly.length > 0)
    parts.push(
      `${verdict.outsideProductOnly.length} type(s) committed only outside product routes and jobs ` +
        `(a harness, the QA seed, a service called by a test, a test-only route): ${verdict.outsideProductOnly.join(', ')}`,
    );
  if (verdict.notEmitted.length > 0)
    parts.push(
      `${verdict.notEmitted.length} type(s) committed by no test at all: ${verdict.notEmitted.join(', ')}`,
    );
  if (verdict.notAsserted.length > 0)
    parts.push(
      `${verdict.notAsserted.length} type(s) committed by product work but asserted by no test (expectEvent): ` +
        verdict.notAsserted.join(', '),
    );
  if (parts.length === 0) return null;
  return (
    `Event catalog coverage: ${parts.join('; ')}. Cause each over HTTP or through its job in an e2e test, ` +
    'and assert it with expectEvent (test/support/expect-event.ts).'
  );
}
