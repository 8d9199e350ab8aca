// `node scripts/tests-alone.mjs [--randomize N] [--seed S] <e2e files...>`: runs every test of the
// given e2e files alone (one Jest run each, `-t '^<its full name>$'`), so a test that only passes
// after an earlier test of its file shows up; with `--randomize N`, also runs each file N times
// with its tests in a random order (Jest's --randomize; the seeds are printed). Prints each
// failure and a summary; exits 1 when a test failed. Needs the build (`npm run build`: it
// migrates one template database with the compiled migrations) and DATABASE_URL (REDIS_URL
// optional, as for `npm test`); the template is migrated once and copied for every test.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { URL } from 'node:url';

const usage = 'usage: node scripts/tests-alone.mjs [--randomize N] [--seed S] <test/x/y.e2e-spec.ts ...>';
const files = [];
let randomize = 0;
let seed;
const args = process.argv.slice(2);
for (let i = 0; i < args.length; i++) {
  const arg = args[i];
  if (arg === '--randomize' && /^\d+$/.test(args[i + 1] ?? '')) randomize = Number(args[++i]);
  else if (arg === '--seed' && /^-?\d+$/.test(args[i + 1] ?? '')) seed = Number(args[++i]);
  else if (arg.startsWith('--') || !/\.(e2e|model)-spec\.ts$/.test(arg)) {
    console.error(`tests-alone: unexpected argument ${arg}\n${usage}`);
    process.exit(2);
  } else files.push(arg);
}
if (files.length === 0 || !process.env.DATABASE_URL) {
  console.error(`tests-alone: give e2e files and set DATABASE_URL\n${usage}`);
  process.exit(2);
}

const root = path.resolve(import.meta.dirname, '..');
// The compiled migrations, through the package's own alias (dist/ once built).
const { ensureDatabase, migrate } = await import('#platform/persistence/database');
/** DATABASE_URL with another database name. */
const withDatabase = (database) => {
  const url = new URL(process.env.DATABASE_URL);
  url.pathname = `/${database}`;
  return url.toString();
};
const adminUrl = withDatabase('postgres');
const templateDb = `erp_tpl_alone_${process.pid}`;
const work = mkdtempSync(path.join(os.tmpdir(), 'tests-alone-'));
const env = {
  ...process.env,
  TESTS_ALONE_STATE: JSON.stringify({ adminUrl, templateDb, redisUrl: process.env.REDIS_URL || undefined }),
};

/** One Jest run of the e2e project on the shared template; answers its --json report. */
function jest(extra, label) {
  const report = path.join(work, 'report.json');
  rmSync(report, { force: true });
  const run = spawnSync(
    'npx',
    [
      'jest',
      '--selectProjects',
      'e2e',
      '--maxWorkers=1',
      '--globalSetup',
      '<rootDir>/test/support/reused-template-setup.ts',
      '--globalTeardown',
      '<rootDir>/test/support/reused-template-teardown.ts',
      // Each run boots its file's apps from nothing, on a machine that may be busy: a start that
      // takes more than the suite's 60 s is not what this script looks for.
      '--testTimeout',
      '180000',
      '--json',
      '--outputFile',
      report,
      ...extra,
    ],
    { cwd: root, env, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
  );
  try {
    return JSON.parse(readFileSync(report, 'utf8'));
  } catch {
    // Jest itself failed (a crash after the tests, a file that does not load): no report.
    return { crashed: `${label}: Jest wrote no report (exit ${run.status}):\n${run.stderr.slice(-3000)}` };
  }
}

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const firstLines = (messages) =>
  messages
    .join('\n')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .slice(0, 12)
    .map((line) => `      ${line}`)
    .join('\n');

let failed = 0;
const summary = [];
try {
  await ensureDatabase(adminUrl, templateDb);
  await migrate(withDatabase(templateDb));

  // The tests of each file, by full name: a run whose name pattern matches nothing lists them skipped.
  const listing = jest(['--runTestsByPath', ...files, '-t', '^\\b$'], 'listing');
  if (listing.crashed) throw new Error(`tests-alone: ${listing.crashed}`);
  const tests = [];
  for (const file of listing.testResults) {
    if (file.status === 'failed' && file.assertionResults.length === 0)
      throw new Error(`tests-alone: ${file.name} does not load:\n${file.message}`);
    for (const test of file.assertionResults)
      tests.push({ file: path.relative(root, file.name), name: test.fullName });
  }
  const names = new Map();
  for (const t of tests) names.set(`${t.file}\0${t.name}`, (names.get(`${t.file}\0${t.name}`) ?? 0) + 1);
  console.log(`tests-alone: ${tests.length} tests in ${listing.testResults.length} files`);

  for (const [i, test] of tests.entries()) {
    const started = Date.now();
    const result = jest(['--runTestsByPath', test.file, '-t', `^${escape(test.name)}$`], test.name);
    if (result.crashed) {
      failed++;
      console.log(
        `FAIL [${i + 1}/${tests.length}] ${test.file} › ${test.name}\n${firstLines([result.crashed])}`,
      );
      summary.push(`alone: ${test.file} › ${test.name} (Jest crashed)`);
      continue;
    }
    const ran = result.testResults.flatMap((f) => f.assertionResults).filter((a) => a.status !== 'pending');
    const passed = ran.filter((a) => a.status === 'passed').length;
    const seconds = ((Date.now() - started) / 1000).toFixed(0);
    const twins = names.get(`${test.file}\0${test.name}`);
    const ok = passed === ran.length && ran.length === twins && result.numRuntimeErrorTestSuites === 0;
    console.log(
      `${ok ? 'PASS' : 'FAIL'} [${i + 1}/${tests.length}, ${seconds} s] ${test.file} › ${test.name}`,
    );
    if (!ok) {
      failed++;
      const messages = [
        ...ran.flatMap((a) => a.failureMessages ?? []),
        ...result.testResults.map((f) => f.message ?? '').filter(Boolean),
      ];
      if (ran.length !== twins) messages.unshift(`ran ${ran.length} tests, expected ${twins}`);
      console.log(firstLines(messages));
      summary.push(`alone: ${test.file} › ${test.name}`);
    }
  }

  for (let round = 0; round < randomize; round++) {
    for (const file of files) {
      const s = seed ?? Math.floor(Math.random() * 2 ** 31);
      const result = jest(['--runTestsByPath', file, '--randomize', '--seed', String(s)], file);
      if (result.crashed) {
        failed++;
        console.log(`FAIL [random order, seed ${s}] ${file}\n${firstLines([result.crashed])}`);
        summary.push(`random order (seed ${s}): ${file} (Jest crashed)`);
        continue;
      }
      const all = result.testResults.flatMap((f) => f.assertionResults);
      const bad = all.filter((a) => a.status === 'failed');
      const ok = bad.length === 0 && result.numRuntimeErrorTestSuites === 0;
      console.log(
        `${ok ? 'PASS' : 'FAIL'} [random order, seed ${s}] ${file}: ${all.length - bad.length}/${all.length}`,
      );
      if (!ok) {
        failed += Math.max(1, bad.length);
        console.log(
          firstLines([
            ...bad.flatMap((a) => a.failureMessages ?? []),
            ...result.testResults.map((f) => f.message ?? ''),
          ]),
        );
        summary.push(
          `random order (seed ${s}): ${file}: ${bad.map((a) => a.fullName).join('; ') || 'the file failed'}`,
        );
      }
    }
  }
  console.log(
    `tests-alone: ${tests.length} tests run alone, ${summary.filter((s) => s.startsWith('alone')).length} failed`,
  );
  for (const line of summary) console.log(`  failed: ${line}`);
} finally {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  const { rows } = await client.query(
    `SELECT datname FROM pg_database WHERE datname = $1 OR datname LIKE $2`,
    [templateDb, `${templateDb}_f%`],
  );
  for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  await client.end();
  rmSync(work, { recursive: true, force: true });
}
process.exit(failed > 0 ? 1 : 0);
