import { ChildProcess, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { AddressInfo } from 'node:net';
import { Client } from 'pg';
import { createApiApp } from '../apps/api/bootstrap';
import { loadConfig } from '#platform/config/app-config';
import { migrate } from '#platform/persistence/database';
import { QaSeedService } from '#platform/seed/qa-seed.service';
import { CopiedRows, copyFloor } from './copy-floor';
import { check, setting, SMOKE } from './smoke';
import { cpuMs, databaseServer, onCleanup, runBench, scratchDatabase, stopChild } from './support';

/** The worker (dispatcher app) as its own process, so its RSS is its own: peak read from /proc (VmHWM). */
function startWorkerProcess(env: Record<string, string>): {
  child: ChildProcess;
  peakRssMb: () => number;
  resetPeak: () => void;
  overallPeakRssMb: () => number;
  rssMb: () => number;
  cpuSeconds: () => number;
  statements: () => Promise<{ statements: number; profile: { text: string; count: number; ms: number }[] }>;
} {
  const profile = process.env.BENCH_PROFILE_DIR
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`]
    : [];
  // Node flags for the worker alone (V8 heap settings, say), to compare them side by side.
  const flags = (process.env.BENCH_WORKER_EXEC_ARGV ?? '').split(' ').filter(Boolean);
  const child = spawn(
    process.execPath,
    [
      ...profile,
      ...flags,
      '--require',
      path.join(__dirname, 'statement-counter.js'),
      path.join(__dirname, '../apps/webhook-dispatcher/main.js'),
    ],
    {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    },
  );
  child.channel?.unref();
  let sampled = 0;
  let overall = 0;
  /** The worker's peak RSS (VmHWM) since the last resetPeak(). */
  const peakRssMb = () => {
    try {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
      sampled = Math.max(sampled, kb / 1024);
      overall = Math.max(overall, sampled);
    } catch {
      // The process is gone: keep the last sample.
    }
    return sampled;
  };
  /** Starts a new peak: the kernel's VmHWM is set back to the current RSS (clear_refs 5). */
  const resetPeak = () => {
    peakRssMb();
    writeFileSync(`/proc/${child.pid}/clear_refs`, '5');
    sampled = 0;
  };
  const overallPeakRssMb = () => Math.max(overall, peakRssMb());
  /** The worker's resident set now (VmRSS). */
  const rssMb = () =>
    Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  /** User + system CPU time of the worker so far, in seconds. */
  const cpuSeconds = () => cpuMs(child.pid!) / 1000;
  /** The statements the worker has sent to PostgreSQL so far (bench/statement-counter.ts). */
  const statements = () =>
    new Promise<{ statements: number; profile: { text: string; count: number; ms: number }[] }>((resolve) => {
      child.once('message', (m) => resolve(m as never));
      child.send('statements');
    });
  return { child, peakRssMb, resetPeak, overallPeakRssMb, rssMb, cpuSeconds, statements };
}

/**
 * CPU seconds (user + system) that the PostgreSQL server processes of the bench database have
 * used so far: each sample reads /proc/<pid>/stat of every backend connected to it and keeps each
 * backend's highest reading, so a backend that exits keeps what it used until its last sample.
 * The database must run on this machine (it does for 127.0.0.1 and the embedded server).
 */
function databaseCpu(db: Client): { sample: () => Promise<number> } {
  const used = new Map<number, number>();
  return {
    async sample() {
      const { rows } = await db.query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity WHERE datname = current_database()`,
      );
      // A backend that exited since the list was read reads 0: its last reading stays.
      for (const { pid } of rows) used.set(pid, Math.max(used.get(pid) ?? 0, cpuMs(pid) / 1000));
      return [...used.values()].reduce((a, b) => a + b, 0);
    },
  };
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as AddressInfo).port;
      s.close(() => resolve(port));
    });
  });

/**
 * `npm run bench:import`: imports 50,000 accounts, 10,000 products, 10,000 journal entries, then
 * 5,000 draft orders, through the API and a worker process; prints per resource the records/s, the
 * records per worker CPU second and per statement the worker sent to PostgreSQL (outbox fan-out
 * included), and the worker's peak RSS. The journal entries post to the QA seed's chart of accounts
 * on dates of its open period; the orders are for the seed's sales account (which has a pricing
 * policy), with a line of the seed's product and a line without product.
 * BENCH_ACCOUNTS / BENCH_PRODUCTS / BENCH_JOURNAL_ENTRIES / BENCH_ORDERS change the sizes (0 skips one); BENCH_PROFILE_DIR writes the worker's CPU
 * profile there; BENCH_STATEMENT_PROFILE=1 adds the worker's slowest statements by total time.
 * Checks (exit code 1 when one fails), per resource: the import completes with every record
 * succeeded and none failed, each record emits exactly one created event (none lost, none twice),
 * and the worker dispatches the outbox to the end. Smoke mode (bench/smoke.ts): 500 accounts,
 * 200 products, 200 journal entries and 100 orders, the same checks.
 */
async function main() {
  const sizes = {
    accounts: setting('BENCH_ACCOUNTS', 50_000, 500),
    products: setting('BENCH_PRODUCTS', 10_000, 200),
    journal_entries: setting('BENCH_JOURNAL_ENTRIES', 10_000, 200),
    orders: setting('BENCH_ORDERS', 5_000, 100),
  };
  const base = loadConfig();
  // A scratch database on DATABASE_URL's server, or on an embedded server of the run's own.
  const server = await databaseServer();
  const url = new URL(await scratchDatabase(server.adminUrl, 'bench_import'));
  await migrate(url.toString());
  const queuePrefix = `bench${Date.now()}`;
  const config = loadConfig(
    {},
    { ...base, DATABASE_URL: url.toString(), LOG_LEVEL: 'silent', QUEUE_PREFIX: queuePrefix },
  );

  const { app } = await createApiApp(config);
  let closed = false;
  const closeApp = async () => {
    if (closed) return;
    closed = true;
    await app.close();
  };
  onCleanup(closeApp);
  const httpServer = app.getHttpServer() as http.Server;
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  const seed = await app.get(QaSeedService).run();
  const baseUrl = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}/v1`;
  const healthPort = await freePort();
  const worker = startWorkerProcess({
    DATABASE_URL: url.toString(),
    LOG_LEVEL: 'silent',
    QUEUE_PREFIX: queuePrefix,
    DISPATCHER_HEALTH_PORT: String(healthPort),
    HOST: '127.0.0.1',
  });
  onCleanup(() => stopChild(worker.child));
  for (;;) {
    const up = await fetch(`http://127.0.0.1:${healthPort}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (worker.child.exitCode !== null) throw new Error('worker exited');
    await new Promise((r) => setTimeout(r, 100));
  }
  // The worker's footprint before any import: what an import adds is the peak minus this.
  await new Promise((r) => setTimeout(r, 1000));
  const idleRssMb = worker.rssMb();
  const db = new Client({ connectionString: config.DATABASE_URL });
  await db.connect();
  const database_cpu = databaseCpu(db);

  const fixtures = seed.fixtures as {
    ledger_accounts: Record<'cash' | 'expense' | 'revenue', string>;
    open_period: { start_date: string; end_date: string };
    product_id: string;
    account_id: string;
  };
  const ledger = fixtures.ledger_accounts;
  const periodDays =
    (Date.parse(fixtures.open_period.end_date) - Date.parse(fixtures.open_period.start_date)) / 86_400_000 +
    1;
  /** A date of the seed's open period, spread over its days. */
  const entryDate = (i: number) =>
    new Date(Date.parse(fixtures.open_period.start_date) + (i % periodDays) * 86_400_000)
      .toISOString()
      .slice(0, 10);
  const sources: Record<keyof typeof sizes, (i: number) => Record<string, unknown>> = {
    accounts: (i) => ({
      external_id: `ACC-${i}`,
      name: `Bench account ${i}`,
      email: `buyer${i}@bench.example`,
      phone: '+1 415 555 0100',
      currency: i % 4 === 0 ? 'EUR' : 'USD',
      credit_limit: (i % 1000) * 12.5,
      tax_id: `TX${i}`,
      metadata: { legacy_id: String(i) },
    }),
    products: (i) => ({
      external_id: `PRD-${i}`,
      sku: `BENCH-${i}`,
      name: `Bench product ${i}`,
      description: 'Imported by the benchmark',
      list_price: 10 + (i % 100) / 4,
      cost_price: 5.5,
      weight: { value: 1.25, unit: 'kg' },
      metadata: { legacy_id: String(i) },
      ...(i % 5 === 0
        ? { variants: [{ sku: `BENCH-${i}-L`, name: 'Large', options: { size: 'L' }, list_price: 30 }] }
        : {}),
    }),
    journal_entries: (i) => {
      const amount = 10 + (i % 400) / 4;
      return {
        external_id: `JE-${i}`,
        entry_date: entryDate(i),
        description: `Bench entry ${i}`,
        lines:
          i % 3 === 0
            ? [
                { account_id: ledger.expense, debit_amount: amount, description: 'Bench expense' },
                { account_id: ledger.cash, credit_amount: amount - 1 },
                { account_id: ledger.revenue, credit_amount: 1 },
              ]
            : [
                { account_id: ledger.expense, debit_amount: amount, description: 'Bench expense' },
                { account_id: ledger.cash, credit_amount: amount },
              ],
      };
    },
    orders: (i) => ({
      external_id: `ORD-${i}`,
      account_id: fixtures.account_id,
      notes: `Bench order ${i}`,
      metadata: { legacy_id: String(i) },
      lines: [
        { product_id: fixtures.product_id, quantity: 1 + (i % 5) },
        { description: 'Bench service', quantity: 1, unit_price: 12.5, tax_rate: 8 },
      ],
    }),
  };
  /** The event each new record emits, and the field of its object that starts with "Bench ". */
  const createdEvent: Record<keyof typeof sizes, { type: string; field: string }> = {
    accounts: { type: 'account.created', field: 'name' },
    products: { type: 'product.created', field: 'name' },
    journal_entries: { type: 'accounting.journal_entry.posted', field: 'description' },
    orders: { type: 'order.created', field: 'notes' },
  };

  /**
   * The rows an import of `resource` wrote, for its COPY floor: the records (and their child
   * rows), the external id mappings and the created events. Accounts and products only.
   */
  const imported = (resource: string, column = 'id') =>
    `${column} IN (SELECT resource_id FROM import_external_ids WHERE resource = '${resource}')`;
  const written = (resource: keyof typeof sizes): CopiedRows[] | undefined => {
    const records: Partial<Record<keyof typeof sizes, CopiedRows[]>> = {
      accounts: [{ table: 'accounts', where: imported('accounts'), params: [] }],
      products: [
        { table: 'products', where: imported('products'), params: [] },
        { table: 'product_variants', where: imported('products', 'product_id'), params: [] },
      ],
    };
    if (!records[resource]) return undefined;
    return [
      ...records[resource],
      { table: 'import_external_ids', where: 'resource = $1', params: [resource] },
      {
        table: 'outbox_events',
        where: `type = $1 AND data->'object'->>$2 LIKE 'Bench %'`,
        params: [createdEvent[resource].type, createdEvent[resource].field],
      },
    ];
  };

  const results: Record<string, unknown>[] = [];
  for (const resource of Object.keys(sizes) as (keyof typeof sizes)[]) {
    const records = sizes[resource];
    if (records === 0) continue;
    const body = Array.from({ length: records }, (_, i) => JSON.stringify(sources[resource](i))).join('\n');
    worker.resetPeak();
    const started = Date.now();
    const cpuBefore = worker.cpuSeconds();
    const dbCpuBefore = await database_cpu.sample();
    const statementsBefore = (await worker.statements()).statements;
    const res = await fetch(
      `${baseUrl}/entities/${seed.entities.primary.id}/migration/imports?resource=${resource}`,
      {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${seed.entities.primary.keys.migration}`,
          'Content-Type': 'application/x-ndjson',
        },
        body,
      },
    );
    const created = (await res.json()) as { id: string };
    const uploaded = (Date.now() - started) / 1000;
    if (res.status !== 201) throw new Error(`import refused: ${JSON.stringify(created)}`);
    let row: { status: string; processed: number; succeeded: number; failed: number };
    for (;;) {
      row = (
        await db.query(`SELECT status, processed, succeeded, failed FROM imports WHERE id = $1`, [created.id])
      ).rows[0];
      worker.peakRssMb();
      await database_cpu.sample();
      if (['completed', 'completed_with_errors', 'failed'].includes(row.status)) break;
      if (worker.child.exitCode !== null) throw new Error('worker exited');
      await new Promise((r) => setTimeout(r, 100));
    }
    const seconds = (Date.now() - started) / 1000;
    const cpu = worker.cpuSeconds() - cpuBefore;
    const dbCpu = (await database_cpu.sample()) - dbCpuBefore;
    const sent = await worker.statements();
    const statements = sent.statements - statementsBefore;
    const phases = (
      await db.query(
        `SELECT extract(epoch FROM started_at - created_at)::float AS queued, extract(epoch FROM completed_at - started_at)::float AS running FROM imports WHERE id = $1`,
        [created.id],
      )
    ).rows[0];
    const { n: events, objects } = (
      await db.query(
        `SELECT count(*)::int AS n, count(DISTINCT data->'object'->>'id')::int AS objects
           FROM outbox_events WHERE type = $1 AND data->'object'->>$2 LIKE 'Bench %'`,
        [createdEvent[resource].type, createdEvent[resource].field],
      )
    ).rows[0] as { n: number; objects: number };
    // The worker also fans the outbox out to webhooks: let it catch up before the next import, so
    // each resource's rate is its own.
    const drainStarted = Date.now();
    let left: number;
    for (;;) {
      left = (await db.query(`SELECT count(*)::int AS n FROM outbox_events WHERE dispatched_at IS NULL`))
        .rows[0].n;
      worker.peakRssMb();
      if (left === 0 || Date.now() - drainStarted > 120_000) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    check(
      row.status === 'completed' && row.succeeded === records && row.failed === 0,
      `${resource}: the import completed with ${records} records succeeded (${row.status}, ${row.succeeded} succeeded, ${row.failed} failed)`,
    );
    check(
      events === records && objects === records,
      `${resource}: one created event per record (${events} events for ${objects} records of ${records})`,
    );
    check(left === 0, `${resource}: the outbox dispatched (${left} events left after 120 s)`);
    // The floor: the same rows written with COPY into a scratch schema of this database.
    const sets = written(resource);
    const floor = sets ? await copyFloor(db, 'bench_copy_floor', sets) : undefined;
    if (floor)
      check(
        floor.identical && floor.written === floor.rows && floor.rows >= 3 * records,
        `${resource}: COPY wrote the ${floor.rows} rows the import wrote (${floor.written} in the scratch tables, at least ${3 * records} expected, ${floor.identical ? 'the same values' : 'values differ'})`,
      );
    const rate = row.processed / seconds;
    const copyRate = floor ? records / floor.seconds : undefined;
    results.push({
      resource,
      records,
      status: row.status,
      succeeded: row.succeeded,
      failed: row.failed,
      created_events: events,
      created_event_objects: objects,
      outbox_left: left,
      seconds: Number(seconds.toFixed(2)),
      upload_seconds: Number(uploaded.toFixed(2)),
      queued_seconds: Number(phases.queued.toFixed(2)),
      running_seconds: Number(phases.running.toFixed(2)),
      records_per_second: Math.round(rate),
      ...(floor && copyRate
        ? {
            copy_rows: floor.rows,
            copy_seconds: Number(floor.seconds.toFixed(2)),
            copy_records_per_second: Math.round(copyRate),
            import_to_copy_ratio: Number((rate / copyRate).toFixed(3)),
            copy_database_cpu_seconds: Number(floor.databaseCpuSeconds.toFixed(2)),
            // CPU per record, which the machine's load changes little: the import's (worker and
            // database) against COPY's (its server process), as a ratio of records per CPU second.
            import_to_copy_cpu_ratio: Number(
              ((floor.databaseCpuSeconds / (cpu + dbCpu)) * (row.processed / records)).toFixed(3),
            ),
          }
        : {}),
      worker_peak_rss_mb: Math.round(worker.peakRssMb()),
      worker_cpu_seconds: Number(cpu.toFixed(2)),
      records_per_worker_cpu_second: Math.round(row.processed / cpu),
      database_cpu_seconds: Number(dbCpu.toFixed(2)),
      records_per_database_cpu_second: Math.round(row.processed / dbCpu),
      worker_statements: statements,
      records_per_statement: Number((row.processed / statements).toFixed(1)),
      ...(process.env.BENCH_STATEMENT_PROFILE === '1' ? { statement_profile: sent.profile } : {}),
      outbox_drained_after_seconds: Number(((Date.now() - drainStarted) / 1000).toFixed(2)),
    });
  }
  const peak = worker.overallPeakRssMb();
  console.log(
    JSON.stringify({
      database: server.embedded ? 'embedded' : 'server',
      ...(SMOKE ? { mode: 'smoke: correctness checks only, speed not judged' } : {}),
      results,
      worker_idle_rss_mb: Math.round(idleRssMb),
      worker_peak_rss_mb: Math.round(peak),
      note: 'the worker runs in its own process; peak RSS is its VmHWM, over the whole run and per resource (reset before each)',
      load_average: readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' '),
      target: { import_to_copy_ratio: '>= 0.5 (accounts, products)', worker_rss_mb: '< 300' },
    }),
  );
  await db.end();
  await stopChild(worker.child);
  await closeApp();
}

runBench(main);
