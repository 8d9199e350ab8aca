import os from 'node:os';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { runSeed } from '../scripts/seed-runner';
import { loadConfig } from '#platform/config/app-config';
import { migrate } from '#platform/persistence/database';
import {
  apiEnv,
  cpuMs,
  databaseServer,
  runBench,
  scratchDatabase,
  Server,
  startServer,
  withClient,
} from './support';
import { check, setting, SMOKE, target } from './smoke';

/**
 * `npm run bench:inventory`: the stock ledger under load.
 *
 * On a fresh database seeded with the QA dataset: 1,000 products × 5 locations get an opening
 * balance (SQL, with its ledger row); 8 concurrent clients then post adjustments and transfers
 * through the real API (each with its journal entry) for 20 s. Then 100,000 balances with
 * 5,000,000 ledger rows behind them are bulk-inserted and `GET /v1/inventory/balances?limit=100`
 * runs for 10 s. Prints movements/s, p50/p99, and replays the whole ledger against the balances
 * (every balance must equal the sum of its rows). Targets are reported as PASS/FAIL; a failed
 * movement, a non-2xx list answer or a ledger mismatch makes the exit code 1. Smoke mode
 * (bench/smoke.ts): 20 products, 2,000 bulk ledger rows, 4 clients, runs of 2 s and 1 s, the
 * same checks.
 */

const MOVE_S = setting('BENCH_DURATION_S', 20, 2);
const GET_S = setting('BENCH_GET_DURATION_S', 10, 1);
const CLIENTS = setting('BENCH_CONNECTIONS', 8, 4);
const PRODUCTS = setting('BENCH_PRODUCTS', 1000, 20);
const LOCATIONS = 5;
const BULK_BALANCES = setting('BENCH_BULK_BALANCES', 100_000, 200);
const BULK_TRANSACTIONS = setting('BENCH_BULK_TRANSACTIONS', 5_000_000, 2_000);
const TARGETS = { minMovementsPerS: 500, maxListP99Ms: 50 };
/** Sequential movements traced per kind, and movements per client traced under concurrency. */
const PROFILED = SMOKE ? 5 : 40;
const CONCURRENT_TRACED = SMOKE ? 3 : 25;

async function call(
  baseUrl: string,
  key: string,
  route: string,
  body?: unknown,
): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${baseUrl}${route}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

/**
 * A UUIDv7-shaped, time-ordered id for bulk rows (PostgreSQL 15 has no uuidv7()): a timestamp an
 * hour back plus the row number, so bulk rows sort before the API's and btree inserts stay
 * append-only, as with the API's own UUIDv7 ids.
 */
const ordered = (n: string, stream = 0) =>
  `(lpad(to_hex((extract(epoch from now()) * 1000)::bigint - 3600000), 12, '0') || '7' || '${stream}' ||` +
  ` '008' || lpad(to_hex(${n}::bigint), 15, '0'))::uuid`;

/** CPU of the API process and of the PostgreSQL backends serving the bench database. */
async function cpuSample(url: string, api: Server): Promise<{ api: number; db: Map<number, number> }> {
  const pids = await withClient(url, async (c) => {
    const { rows } = await c.query(
      'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
    );
    return rows.map((r: { pid: number }) => r.pid);
  });
  return { api: cpuMs(api.child.pid!), db: new Map(pids.map((pid: number) => [pid, cpuMs(pid)])) };
}

function cpuSpent(
  before: Awaited<ReturnType<typeof cpuSample>>,
  after: Awaited<ReturnType<typeof cpuSample>>,
) {
  let db = 0;
  for (const [pid, ms] of after.db) db += ms - (before.db.get(pid) ?? 0);
  return { api: after.api - before.api, db };
}

type SqlStats = { sql: string; count: number; totalMs: number }[];

/** Asks the API child (bench/api-server.ts) to start or stop counting its statements. */
function trace(server: Server, message: 'trace-on' | 'trace-off'): Promise<SqlStats> {
  return new Promise((resolve) => {
    server.child.once('message', (reply) => resolve((reply as { stats?: SqlStats }).stats ?? []));
    server.child.send(message);
  });
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

async function main() {
  const { adminUrl, embedded } = await databaseServer();
  const url = await scratchDatabase(adminUrl, 'bench_inventory');
  console.log(`database ${new URL(url).pathname.slice(1)} on ${new URL(url).host}`);
  await migrate(url);
  const seed = await runSeed(loadConfig({}, { DATABASE_URL: url, LOG_LEVEL: 'silent' }));
  const key = seed.entities.primary.keys.live;
  const entityId = seed.entities.primary.id;
  const widget = seed.fixtures.product_id as string;

  const child = await startServer(
    'the API',
    'api-server.js',
    apiEnv(url, { QUEUE_PREFIX: `benchinv${process.pid}` }),
  );
  const locations: string[] = [seed.fixtures.location_id as string];
  for (let i = 1; i < LOCATIONS; i++) {
    const res = await call(child.baseUrl, key, '/v1/locations', {
      name: `Bench location ${i}`,
      code: `BENCH-${i}`,
      type: 'warehouse',
    });
    locations.push((res.body as { id: string }).id);
  }

  // 1,000 products copied from the seeded widget; an opening balance of 1,000,000 units at 2.5 per
  // product and location, each with its ledger row, so the moves never run out of stock.
  let started = performance.now();
  const products = await withClient(url, async (c) => {
    const { rows: cols } = await c.query(
      `SELECT column_name FROM information_schema.columns WHERE table_name = 'products' AND table_schema = current_schema() ORDER BY ordinal_position`,
    );
    const names = cols.map((r: { column_name: string }) => r.column_name);
    const exprs = names.map((n: string) =>
      n === 'id'
        ? 'gen_random_uuid()'
        : n === 'sku'
          ? `'BENCH-' || g`
          : n === 'name'
            ? `'Bench product ' || g`
            : `p.${n}`,
    );
    const { rows } = await c.query(
      `INSERT INTO products (${names.join(', ')}) SELECT ${exprs.join(', ')} FROM products p, generate_series(1, $2::int) g WHERE p.id = $1 RETURNING id`,
      [widget, PRODUCTS],
    );
    const ids = rows.map((r: { id: string }) => r.id);
    await c.query('BEGIN');
    await c.query(
      `INSERT INTO inventory_balances (id, entity_id, livemode, product_id, location_id, on_hand, unit_cost, value, stock_level)
       SELECT gen_random_uuid(), $1, true, p, l, 1000000, 2.5, 2500000, 'in_stock' FROM unnest($2::uuid[]) p, unnest($3::uuid[]) l`,
      [entityId, ids, locations],
    );
    await c.query(
      `INSERT INTO inventory_transactions (id, entity_id, livemode, balance_id, product_id, location_id, type, quantity, unit_cost, value, source_type, occurred_at)
       SELECT gen_random_uuid(), entity_id, true, id, product_id, location_id, 'adjustment', 1000000, 2.5, 2500000, 'bench', now()
       FROM inventory_balances WHERE entity_id = $1 AND product_id = ANY($2::uuid[])`,
      [entityId, ids],
    );
    await c.query('COMMIT');
    await c.query('ANALYZE');
    return ids;
  });
  console.log(
    `opening stock: ${PRODUCTS} products × ${LOCATIONS} locations in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );

  // Warm-up, then 8 clients for MOVE_S seconds: 2 adjustments for every transfer.
  const pick = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)];
  const move = async (): Promise<number> => {
    const product = pick(products);
    const t0 = performance.now();
    const r = Math.random();
    const res =
      r < 0.67
        ? await call(child.baseUrl, key, '/v1/inventory/adjustments', {
            product_id: product,
            location_id: pick(locations),
            ...(Math.random() < 0.5
              ? { quantity: -Math.ceil(Math.random() * 5) }
              : { quantity: Math.ceil(Math.random() * 5), unit_cost: 2.5 }),
            reason: 'bench',
          })
        : await call(child.baseUrl, key, '/v1/inventory/transfers', {
            product_id: product,
            from_location_id: locations[0],
            to_location_id: pick(locations.slice(1)),
            quantity: Math.ceil(Math.random() * 3),
          });
    if (res.status !== 201) throw new Error(`movement answered ${res.status}: ${JSON.stringify(res.body)}`);
    return performance.now() - t0;
  };
  for (let i = 0; i < (SMOKE ? 5 : 50); i++) await move().catch(() => 0);

  // Statements per movement: sequential adjustments and transfers with the API's SQL tracing on.
  const profiled = async (route: string, body: () => unknown) => {
    await trace(child, 'trace-on');
    for (let i = 0; i < PROFILED; i++) {
      const res = await call(child.baseUrl, key, route, body());
      if (res.status !== 201) throw new Error(`${route} answered ${res.status}: ${JSON.stringify(res.body)}`);
    }
    const stats = await trace(child, 'trace-off');
    if (process.env.BENCH_TRACE === '1')
      for (const x of stats)
        console.log(
          `  ${(x.count / PROFILED).toFixed(2)} × ${(x.totalMs / x.count).toFixed(2)} ms  ${x.sql.slice(0, 110)}`,
        );
    return stats.reduce((sum, x) => sum + x.count, 0) / PROFILED;
  };
  const perAdjustment = await profiled('/v1/inventory/adjustments', () => ({
    product_id: pick(products),
    location_id: pick(locations),
    quantity: -1,
    reason: 'bench',
  }));
  const perTransfer = await profiled('/v1/inventory/transfers', () => ({
    product_id: pick(products),
    from_location_id: locations[0],
    to_location_id: pick(locations.slice(1)),
    quantity: 1,
  }));
  console.log(
    `statements per movement (sequential, SQL traced): adjustment ${perAdjustment.toFixed(1)}, transfer ${perTransfer.toFixed(1)}`,
  );
  // Statements per movement under concurrency (the clients' movements share transactions): the
  // 8 clients post 25 movements each with the SQL tracing on.
  await trace(child, 'trace-on');
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      for (let i = 0; i < CONCURRENT_TRACED; i++) await move();
    }),
  );
  const concurrentStatements =
    (await trace(child, 'trace-off')).reduce((sum, x) => sum + x.count, 0) / (CLIENTS * CONCURRENT_TRACED);
  console.log(`statements per movement (${CLIENTS} clients, SQL traced): ${concurrentStatements.toFixed(1)}`);

  const latencies: number[] = [];
  let errors = 0;
  const deadline = performance.now() + MOVE_S * 1000;
  started = performance.now();
  const cpuBefore = await cpuSample(url, child);
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (performance.now() < deadline) {
        try {
          latencies.push(await move());
        } catch (error) {
          errors++;
          if (errors <= 3) console.error(error instanceof Error ? error.message : error);
        }
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const cpu = cpuSpent(cpuBefore, await cpuSample(url, child));
  latencies.sort((a, b) => a - b);
  const movesPerS = latencies.length / elapsed;
  const perMove = (ms: number) => (latencies.length ? ms / latencies.length : 0).toFixed(2);
  const cpuLine =
    `CPU per movement: API ${perMove(cpu.api)} ms + PostgreSQL ${perMove(cpu.db)} ms = ${perMove(cpu.api + cpu.db)} ms; ` +
    `load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`;
  console.log(
    `adjustments + transfers (each with its journal entry), ${CLIENTS} clients, ${MOVE_S} s: ${latencies.length} movements, ` +
      `${movesPerS.toFixed(0)}/s; p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms; errors ${errors}`,
  );
  console.log(cpuLine);

  // 100,000 balances with 5,000,000 ledger rows behind them (50 rows each), inserted with SQL.
  started = performance.now();
  const bulkBalances = BULK_BALANCES - PRODUCTS * LOCATIONS;
  const perBalance = Math.max(1, Math.ceil(BULK_TRANSACTIONS / bulkBalances));
  await withClient(url, async (c) => {
    await c.query('BEGIN');
    await c.query(
      `INSERT INTO inventory_balances (id, entity_id, livemode, product_id, location_id, on_hand, unit_cost, value, stock_level)
       SELECT ${ordered('g')}, $1, true, gen_random_uuid(), $2, $3, 2, 2 * $3, 'in_stock' FROM generate_series(1, $4::int) g`,
      [entityId, locations[0], perBalance, bulkBalances],
    );
    await c.query(
      `INSERT INTO inventory_transactions (id, entity_id, livemode, balance_id, product_id, location_id, type, quantity, unit_cost, value, source_type, occurred_at)
       SELECT ${ordered('n', 1)}, entity_id, true, id, product_id, location_id, 'receipt', 1, 2, 2, 'bench', now()
       FROM (SELECT b.*, row_number() OVER (ORDER BY b.id, s) AS n
             FROM inventory_balances b, generate_series(1, $2::int) s
             WHERE b.entity_id = $1 AND b.on_hand = $2 AND b.value = 2 * $2 AND b.unit_cost = 2) rows`,
      [entityId, perBalance],
    );
    await c.query('COMMIT');
    await c.query('VACUUM ANALYZE inventory_balances');
    await c.query('ANALYZE inventory_transactions');
  });
  const counts = await withClient(url, async (c) => {
    const { rows } = await c.query(
      `SELECT (SELECT count(*) FROM inventory_balances WHERE entity_id = $1)::int AS balances,
              (SELECT count(*) FROM inventory_transactions WHERE entity_id = $1)::int AS transactions`,
      [entityId],
    );
    return rows[0] as { balances: number; transactions: number };
  });
  console.log(
    `bulk: ${counts.balances.toLocaleString('en')} balances, ${counts.transactions.toLocaleString('en')} transactions in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );

  const listUrl = `${child.baseUrl}/v1/inventory/balances?limit=100`;
  if (!SMOKE)
    await autocannon({
      url: listUrl,
      headers: { Authorization: `Bearer ${key}` },
      connections: CLIENTS,
      duration: 2,
    });
  const list = await autocannon({
    url: listUrl,
    headers: { Authorization: `Bearer ${key}` },
    connections: CLIENTS,
    duration: GET_S,
  });

  started = performance.now();
  const mismatches = await withClient(url, async (c) => {
    const { rows } = await c.query(
      `SELECT count(*)::int AS n FROM inventory_balances b
       LEFT JOIN (SELECT balance_id, sum(quantity) AS q, sum(value) AS v FROM inventory_transactions GROUP BY balance_id) t ON t.balance_id = b.id
       WHERE b.on_hand <> coalesce(t.q, 0) OR b.value <> coalesce(t.v, 0)`,
    );
    return rows[0].n as number;
  });
  const replayS = (performance.now() - started) / 1000;
  await child.stop();

  const pass = target;
  console.log(
    `\n${CLIENTS} clients, Node ${process.version}, ${os.cpus().length} CPUs, PostgreSQL ${embedded ? 'embedded' : new URL(adminUrl).host}`,
  );
  console.log(
    `adjustments + transfers (each with its journal entry), ${MOVE_S} s: ${latencies.length} movements, ${movesPerS.toFixed(0)} movements/s; ` +
      `p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms; errors ${errors}`,
  );
  console.log(
    `GET /v1/inventory/balances?limit=100 on ${counts.balances.toLocaleString('en')} balances / ${counts.transactions.toLocaleString('en')} transactions, ${GET_S} s: ` +
      `${list.requests.average.toFixed(0)} req/s; p50 ${list.latency.p50} ms, p99 ${list.latency.p99} ms; non-2xx ${list.non2xx}, errors ${list.errors + list.timeouts}`,
  );
  console.log(cpuLine);
  console.log(
    `statements per movement (sequential): adjustment ${perAdjustment.toFixed(1)}, transfer ${perTransfer.toFixed(1)}; ` +
      `${CLIENTS} clients: ${concurrentStatements.toFixed(1)}`,
  );
  console.log(`ledger replay over every balance: ${mismatches} mismatches (${replayS.toFixed(1)} s)`);
  console.log(`\nTargets${SMOKE ? ' (smoke mode: speed not judged)' : ''}`);
  console.log(
    `  ${pass(movesPerS >= TARGETS.minMovementsPerS)}  ${movesPerS.toFixed(0)} movements/s (target >= ${TARGETS.minMovementsPerS})`,
  );
  console.log(
    `  ${pass(list.latency.p99 < TARGETS.maxListP99Ms)}  balance list p99 ${list.latency.p99} ms (target < ${TARGETS.maxListP99Ms} ms)`,
  );
  console.log(
    `  ${check(mismatches === 0, 'every balance equals its ledger')}  ${mismatches} balances differ from their ledger`,
  );
  console.log(`  ${check(errors === 0, 'no failed movement')}  ${errors} failed movements`);
  console.log(
    `  ${check(list.non2xx + list.errors + list.timeouts === 0, 'every balance list answer a 2xx')}  balance list: ${list.non2xx} non-2xx, ${list.errors + list.timeouts} errors`,
  );
}

runBench(main);
