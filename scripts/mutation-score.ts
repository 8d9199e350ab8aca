/**
 * `npm run test:mutation` runs Stryker (stryker.config.mjs), then this script: it reads Stryker's
 * JSON report, prints the mutation score of each context (accounting, catalog, ..., platform for
 * libs/platform/domain, verifier for the shipped webhook signature verifier) and exits 1 when one
 * of them is below its floor in test/mutation/floor.json, when a context has no floor, or when a
 * context with a floor has no mutant left in the report.
 *
 *   node dist/scripts/mutation-score.js [--report reports/mutation/mutation.json] [--floor test/mutation/floor.json]
 *   node dist/scripts/mutation-score.js --record   # writes the current scores as the new floors
 *
 * The score follows Stryker's definition: detected (killed or timed out) over detected plus
 * undetected (survived or not covered); compile and runtime errors and ignored mutants count in
 * neither.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The statuses of mutation-testing-report-schema. */
export type MutantStatus =
  'Killed' | 'Survived' | 'NoCoverage' | 'Timeout' | 'CompileError' | 'RuntimeError' | 'Ignored' | 'Pending';

interface ReportMutant {
  id: string;
  mutatorName: string;
  replacement?: string;
  status: MutantStatus;
  location: { start: { line: number; column: number } };
}

export interface MutationReport {
  files: Record<string, { mutants: ReportMutant[] }>;
}

export interface ContextScore {
  context: string;
  killed: number;
  timeout: number;
  survived: number;
  noCoverage: number;
  /** Compile and runtime errors: not valid mutants, outside the score. */
  errors: number;
  ignored: number;
  /** Percentage with two decimals, or null when the context has no valid mutant. */
  score: number | null;
}

export type Floors = Record<string, number>;

const STATUSES = new Set<string>([
  'Killed',
  'Survived',
  'NoCoverage',
  'Timeout',
  'CompileError',
  'RuntimeError',
  'Ignored',
  'Pending',
]);

/** Parses the JSON text of Stryker's report; throws on anything that is not one. */
export function parseReport(text: string): MutationReport {
  const data = JSON.parse(text) as unknown;
  const files = (data as { files?: unknown } | null)?.files;
  if (typeof files !== 'object' || files === null || Array.isArray(files)) {
    throw new Error('not a mutation report: no "files" object');
  }
  for (const [file, entry] of Object.entries(files as Record<string, unknown>)) {
    const mutants = (entry as { mutants?: unknown } | null)?.mutants;
    if (!Array.isArray(mutants)) throw new Error(`not a mutation report: ${file} has no "mutants" array`);
    for (const mutant of mutants as { status?: unknown }[]) {
      if (typeof mutant?.status !== 'string' || !STATUSES.has(mutant.status)) {
        throw new Error(`not a mutation report: ${file} has a mutant with status ${String(mutant?.status)}`);
      }
    }
  }
  return data as MutationReport;
}

/**
 * The context a mutated file belongs to: `libs/contexts/<name>/domain/...` is `<name>`,
 * `libs/contexts/webhooks/verifier/...` is `verifier`, `libs/platform/domain/...` is `platform`.
 * The path may be absolute or relative, with either separator.
 */
export function contextOf(file: string): string {
  const normalized = file.split(path.sep).join('/').replace(/\\/g, '/');
  const verifier = /(?:^|\/)libs\/contexts\/webhooks\/verifier\//.exec(normalized);
  if (verifier) return 'verifier';
  const context = /(?:^|\/)libs\/contexts\/([^/]+)\/domain\//.exec(normalized);
  if (context) return context[1];
  if (/(?:^|\/)libs\/platform\/domain\//.test(normalized)) return 'platform';
  throw new Error(
    `${file} is outside the mutated layers (libs/contexts/*/domain, libs/platform/domain, the verifier)`,
  );
}

const percentage = (detected: number, valid: number): number | null =>
  valid === 0 ? null : Math.floor((detected * 10_000) / valid) / 100;

/** The score of each context, sorted by name. */
export function scoresByContext(report: MutationReport): ContextScore[] {
  const byContext = new Map<string, ContextScore>();
  for (const [file, { mutants }] of Object.entries(report.files)) {
    const context = contextOf(file);
    let row = byContext.get(context);
    if (!row) {
      row = {
        context,
        killed: 0,
        timeout: 0,
        survived: 0,
        noCoverage: 0,
        errors: 0,
        ignored: 0,
        score: null,
      };
      byContext.set(context, row);
    }
    for (const { status } of mutants) {
      if (status === 'Killed') row.killed++;
      else if (status === 'Timeout') row.timeout++;
      else if (status === 'Survived') row.survived++;
      else if (status === 'NoCoverage') row.noCoverage++;
      else if (status === 'CompileError' || status === 'RuntimeError') row.errors++;
      else if (status === 'Ignored') row.ignored++;
      else throw new Error(`${file}: a mutant is still ${status}; the run did not finish`);
    }
  }
  const rows = [...byContext.values()].sort((a, b) => a.context.localeCompare(b.context));
  for (const row of rows) {
    const detected = row.killed + row.timeout;
    row.score = percentage(detected, detected + row.survived + row.noCoverage);
  }
  return rows;
}

/** Why the scores do not meet the floors; empty when they do. */
export function compareWithFloors(scores: ContextScore[], floors: Floors): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const { context, score } of scores) {
    seen.add(context);
    const floor = floors[context];
    if (floor === undefined) {
      problems.push(`${context}: no floor in the floor file (record one with --record)`);
    } else if (score === null) {
      if (floor > 0) problems.push(`${context}: no mutant was tested, the floor is ${floor.toFixed(2)}%`);
    } else if (score < floor) {
      problems.push(
        `${context}: mutation score ${score.toFixed(2)}% is below its floor of ${floor.toFixed(2)}%`,
      );
    }
  }
  for (const context of Object.keys(floors)
    .filter((name) => !seen.has(name))
    .sort()) {
    problems.push(`${context}: has a floor but no mutated file in the report`);
  }
  return problems;
}

/** The floors that record the given scores (a context without a valid mutant gets 0). */
export function floorsOf(scores: ContextScore[]): Floors {
  return Object.fromEntries(scores.map(({ context, score }) => [context, score ?? 0]));
}

/** The per-context table printed by the script (Markdown, as in docs/testing.md). */
export function renderTable(scores: ContextScore[], floors: Floors = {}): string {
  const lines = [
    '| Context | Score | Killed | Timeout | Survived | No coverage | Errors | Ignored | Floor |',
    '| ------- | ----: | -----: | ------: | -------: | ----------: | -----: | ------: | ----: |',
  ];
  for (const row of scores) {
    const score = row.score === null ? 'n/a' : `${row.score.toFixed(2)}%`;
    const floor = floors[row.context] === undefined ? 'none' : `${floors[row.context].toFixed(2)}%`;
    lines.push(
      `| ${row.context} | ${score} | ${row.killed} | ${row.timeout} | ${row.survived} | ${row.noCoverage} | ${row.errors} | ${row.ignored} | ${floor} |`,
    );
  }
  return lines.join('\n');
}

function parseFloors(text: string): Floors {
  const data = JSON.parse(text) as unknown;
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    throw new Error('the floor file is not an object');
  for (const [context, value] of Object.entries(data)) {
    if (typeof value !== 'number' || !(value >= 0 && value <= 100)) {
      throw new Error(`the floor of ${context} is not a percentage between 0 and 100`);
    }
  }
  return data as Floors;
}

export function main(argv: string[]): number {
  let reportFile = 'reports/mutation/mutation.json';
  let floorFile = 'test/mutation/floor.json';
  let record = false;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--record') record = true;
    else if (argv[i] === '--report' && argv[i + 1]) reportFile = argv[++i];
    else if (argv[i] === '--floor' && argv[i + 1]) floorFile = argv[++i];
    else {
      console.error(`mutation-score: unknown argument ${argv[i]}`);
      console.error('usage: mutation-score [--report FILE] [--floor FILE] [--record]');
      return 2;
    }
  }
  const scores = scoresByContext(parseReport(readFileSync(reportFile, 'utf8')));
  if (record) {
    const floors = floorsOf(scores);
    writeFileSync(floorFile, `${JSON.stringify(floors, null, 2)}\n`);
    console.log(renderTable(scores, floors));
    console.log(`\nmutation-score: floors recorded in ${floorFile}`);
    return 0;
  }
  const floors = parseFloors(readFileSync(floorFile, 'utf8'));
  console.log(renderTable(scores, floors));
  const problems = compareWithFloors(scores, floors);
  if (problems.length > 0) {
    console.error(
      `\nmutation-score: FAILED (floors in ${floorFile}; the surviving mutants are in ${reportFile})`,
    );
    for (const problem of problems) console.error(`  ${problem}`);
    return 1;
  }
  console.log(`\nmutation-score: every context is at or above its floor (${floorFile})`);
  return 0;
}

if (require.main === module) process.exit(main(process.argv.slice(2)));
