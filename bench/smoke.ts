/**
 * Smoke mode of the benchmarks (`--smoke` on the command line, or BENCH_SMOKE=1): small data and
 * runs of a second or two, so that CI can run every benchmark in a few minutes. Every correctness
 * check of a benchmark still runs (answers agreeing with the baseline server, lost or duplicated
 * events, ledger replays, ...); its speed targets are not judged, since a smoke run measures
 * nothing worth comparing.
 *
 * In every mode a failed correctness check makes the benchmark exit with code 1 (after its
 * figures and cleanup); speed targets only print PASS or FAIL.
 */

export const SMOKE = process.argv.includes('--smoke') || process.env.BENCH_SMOKE === '1';

/**
 * A size or duration: the environment variable `name` when it is set, otherwise `normal` in a
 * measured run and `smoke` in smoke mode.
 */
export function setting(name: string, normal: number, smoke: number): number {
  const value = process.env[name];
  return value !== undefined && value !== '' ? Number(value) : SMOKE ? smoke : normal;
}

const failures: string[] = [];
let passed = 0;

/**
 * A correctness check: counted, and its verdict returned as `PASS` or `FAIL` for the benchmark's
 * own report line. A failed check is named again at the end and makes the run exit with code 1.
 */
export function check(ok: boolean, what: string): 'PASS' | 'FAIL' {
  if (ok) passed++;
  else failures.push(what);
  return ok ? 'PASS' : 'FAIL';
}

/** A speed target's verdict: PASS or FAIL in a measured run, `n/a ` (not judged) in smoke mode. */
export const target = (ok: boolean): string => (SMOKE ? 'n/a ' : ok ? 'PASS' : 'FAIL');

/**
 * The run's correctness verdict, printed last: `checks: n passed` or the failed checks. In smoke
 * mode the line starts with `smoke:` (bench/smoke-all.ts prints it). False when a check failed.
 */
export function reportChecks(): boolean {
  const prefix = SMOKE ? 'smoke: ' : '';
  if (failures.length === 0) {
    console.log(`\n${prefix}${passed} correctness checks passed`);
    return true;
  }
  console.log(
    `\n${prefix}${failures.length} of ${passed + failures.length} correctness checks FAILED: ${failures.join('; ')}`,
  );
  return false;
}
