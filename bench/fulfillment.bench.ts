import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import { runSeed } from '../scripts/seed-runner';
import { loadConfig } from '#platform/config/app-config';
import { migrate } from '#platform/persistence/database';
import {
  apiEnv,
  cpuMs,
  databaseServer,
  jsonCaller,
  runBench,
  scratchDatabase,
  Server,
  startServer,
  withClient,
} from './support';
import { check as verify, setting, SMOKE, target } from './smoke';

/**
 * `npm run bench:fulfillment`: packages created, labelled and fulfilled in one request.
 *
 * On a fresh database seeded with the QA dataset, each of 8 clients gets three products with
 * stock, one confirmed sales order of those three products, and a sandbox rate for it (rates of
 * an order can buy the labels of its new packages). For `BENCH_DURATION_S` (20) seconds each
 * client then creates packages of 3 items with `buy_label: true` and `fulfill_after_label: true`:
 * package and items, the label (a PDF rendered by the sandbox carrier), stock decremented, the
 * FULFILLMENT journal entry, the shipment notification and the events, in one transaction.
 * Finally stock, ledger and events are checked against the packages: every stock balance equals
 * its ledger and its opening stock less what was shipped, every shipped package has one balanced
 * FULFILLMENT entry and one `fulfillment.shipped` event. Prints packages/s, p50/p99, the
 * disagreements, and PASS/FAIL against the targets; exit code 0 either way.
 *
 * Because the machine is shared, it also prints what a package costs independently of the rate:
 * CPU time (user + system, from /proc) of the API and of the database's backends per package
 * during the run, the time requests spent waiting on locks (sampled from pg_stat_activity), and,
 * over `BENCH_TRACE_PACKAGES` (20) sequential packages after the run, the SQL statements (each one
 * round trip) a package costs.
 *
 * The checks (exit code 1 when one fails): no failed request, the shipped packages are exactly
 * the ones the clients made, and the stock, ledger, events and kept units above. Smoke mode
 * (bench/smoke.ts): 2 clients for 2 s, 3 traced packages, the same checks.
 */

const DURATION_S = setting('BENCH_DURATION_S', 20, 2);
const CLIENTS = setting('BENCH_CONNECTIONS', 8, 2);
const OPENING_STOCK = 1_000_000;
const TARGETS = { minPackagesPerS: 150, maxP99Ms: 250 };

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

let caller: ReturnType<typeof jsonCaller> | undefined;

/** One request of the benchmark (keep-alive connections from `jsonCaller`). */
function call(baseUrl: string, key: string, method: string, route: string, body?: unknown): Promise<Answer> {
  caller ??= jsonCaller(baseUrl, key);
  return caller(method, route, body);
}

async function must(
  answer: Promise<Answer>,
  expected: number,
  what: string,
): Promise<Record<string, unknown>> {
  const res = await answer;
  if (res.status !== expected) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

const TRACE_PACKAGES = setting('BENCH_TRACE_PACKAGES', 20, 3);
const LOCK_SAMPLE_MS = 50;

/** The pids of the backends connected to the bench database (the API's pool). */
async function backendPids(monitor: Client): Promise<number[]> {
  const { rows } = await monitor.query<{ pid: number }>(
    `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`,
  );
  return rows.map((r) => r.pid);
}

/**
 * Samples the bench database's backends every LOCK_SAMPLE_MS: how many wait on a lock, and on which kind
 * (`transactionid`: a row another transaction updated; `advisory`: the order lock; `tuple`...).
 * Lock-wait time = samples × LOCK_SAMPLE_MS (50 ms: often enough for a 20 s run, rarely enough that
 * the monitor's own queries cost the machine little).
 */
function sampleLockWaits(monitor: Client) {
  const waits = new Map<string, number>();
  let samples = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const { rows } = await monitor.query<{ what: string; query: string; n: number }>(
        `SELECT wait_event AS what, left(regexp_replace(query, '\\s+', ' ', 'g'), 70) AS query, count(*)::int AS n
           FROM pg_stat_activity
          WHERE datname = current_database() AND pid <> pg_backend_pid() AND wait_event_type = 'Lock'
          GROUP BY 1, 2`,
      );
      samples++;
      for (const r of rows)
        waits.set(`${r.what} | ${r.query}`, (waits.get(`${r.what} | ${r.query}`) ?? 0) + r.n);
      await new Promise((resolve) => setTimeout(resolve, LOCK_SAMPLE_MS));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return { samples, waits };
    },
  };
}

/**
 * Sequential packages with the API's SQL tracing on: statements per package, and the socket
 * writes they left in (statements issued together leave in one; each is a round trip).
 */
async function tracePackages(server: Server, ship: () => Promise<number>) {
  const ask = (message: string) =>
    new Promise<{ batches?: number; stats?: { sql: string; count: number; totalMs: number }[] }>(
      (resolve) => {
        server.child.once('message', (reply) =>
          resolve(reply as { batches?: number; stats?: { sql: string; count: number; totalMs: number }[] }),
        );
        server.child.send(message);
      },
    );
  await ask('trace-on');
  let ms = 0;
  for (let i = 0; i < TRACE_PACKAGES; i++) ms += await ship();
  const { stats = [], batches = 0 } = await ask('trace-off');
  return {
    ms: ms / TRACE_PACKAGES,
    batches: batches / TRACE_PACKAGES,
    statements: stats.reduce((sum, s) => sum + s.count, 0) / TRACE_PACKAGES,
    dbMs: stats.reduce((sum, s) => sum + s.totalMs, 0) / TRACE_PACKAGES,
    stats: [...stats].sort((x, y) => y.count - x.count || y.totalMs - x.totalMs),
  };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

interface Lane {
  orderId: string;
  itemIds: string[];
  rateObjectId: string;
}

async function main() {
  const { adminUrl, embedded } = await databaseServer();
  const url = await scratchDatabase(adminUrl, 'bench_fulfillment');
  console.log(`database ${new URL(url).pathname.slice(1)} on ${new URL(url).host}`);
  await migrate(url);
  const seed = await runSeed(loadConfig({}, { DATABASE_URL: url, LOG_LEVEL: 'silent' }));
  const key = seed.entities.primary.keys.live;
  const accountId = seed.fixtures.account_id as string;
  const locationId = seed.fixtures.location_id as string;
  const api = await startServer(
    'the API',
    'api-server.js',
    apiEnv(url, { QUEUE_PREFIX: `benchful${process.pid}` }),
  );
  const base = api.baseUrl;

  // Each client ships its own order of its own three products: the lanes contend only where the
  // product does (the entity's journal numbering, the outbox), not on each other's rows.
  let started = performance.now();
  const lanes: Lane[] = [];
  for (let c = 0; c < CLIENTS; c++) {
    const products: string[] = [];
    for (let p = 0; p < 3; p++) {
      const product = await must(
        call(base, key, 'POST', '/v1/products', {
          sku: `BENCH-FUL-${process.pid}-${c}-${p}`,
          name: `Bench shipped product ${c}.${p}`,
          type: 'standard',
          list_price: 20 + p,
        }),
        201,
        'product',
      );
      await must(
        call(base, key, 'POST', '/v1/inventory/adjustments', {
          product_id: product.id,
          location_id: locationId,
          quantity: OPENING_STOCK,
          unit_cost: 8,
          reason: 'bench opening stock',
        }),
        201,
        'opening stock',
      );
      products.push(product.id as string);
    }
    const draft = await must(
      call(base, key, 'POST', '/v1/orders', {
        account_id: accountId,
        lines: products.map((product_id) => ({ product_id, quantity: OPENING_STOCK })),
      }),
      201,
      'order',
    );
    const order = await must(
      call(base, key, 'POST', `/v1/orders/${String(draft.id)}/confirm`, {}),
      200,
      'confirm',
    );
    const itemIds = (order.lines as { id: string }[]).map((l) => l.id);
    // A first package (not bought) to quote rates for the order.
    const first = await must(
      call(base, key, 'POST', '/v1/packages', {
        order_id: order.id,
        weight: 2,
        items: itemIds.map((order_item_id) => ({ order_item_id, quantity: 1 })),
      }),
      201,
      'first package',
    );
    const rates = await must(call(base, key, 'GET', `/v1/packages/${String(first.id)}/rates`), 200, 'rates');
    const rate = (rates.data as { rate_object_id: string; carrier: string; service_level: string }[]).find(
      (r) => r.carrier === 'usps',
    );
    if (!rate) throw new Error('no usps rate');
    lanes.push({ orderId: order.id as string, itemIds, rateObjectId: rate.rate_object_id });
  }
  console.log(
    `setup: ${CLIENTS} orders of 3 products with stock, rates quoted, in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );

  const ship = async (lane: Lane): Promise<number> => {
    const t0 = performance.now();
    const res = await call(base, key, 'POST', '/v1/packages', {
      order_id: lane.orderId,
      weight: 2,
      items: lane.itemIds.map((order_item_id) => ({ order_item_id, quantity: 1 })),
      buy_label: true,
      rate_object_id: lane.rateObjectId,
      fulfill_after_label: true,
    });
    if (res.status !== 201 || res.body.status !== 'shipped')
      throw new Error(`package answered ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
    return performance.now() - t0;
  };
  for (const lane of lanes) for (let i = 0; i < 3; i++) await ship(lane);

  const monitor = new Client({ connectionString: url });
  await monitor.connect();
  const latencies: number[] = [];
  let errors = 0;
  const pidsBefore = await backendPids(monitor);
  const cpuBefore = new Map(pidsBefore.map((pid) => [pid, cpuMs(pid)]));
  const apiCpuBefore = cpuMs(api.child.pid!);
  const lockSampler = sampleLockWaits(monitor);
  const deadline = performance.now() + DURATION_S * 1000;
  started = performance.now();
  await Promise.all(
    lanes.map(async (lane) => {
      while (performance.now() < deadline) {
        try {
          latencies.push(await ship(lane));
        } catch (error) {
          errors++;
          if (errors <= 3) console.error(error instanceof Error ? error.message : error);
        }
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const apiCpuMs = cpuMs(api.child.pid!) - apiCpuBefore;
  // Backends opened during the run count from zero; the sampler's own backend is not among them.
  const pidsAfter = await backendPids(monitor);
  const dbCpuMs = pidsAfter.reduce((sum, pid) => sum + cpuMs(pid) - (cpuBefore.get(pid) ?? 0), 0);
  const locks = await lockSampler.stop();
  await monitor.end();
  latencies.sort((a, b) => a - b);
  const perS = latencies.length / elapsed;
  const trace = await tracePackages(api, () => ship(lanes[0]));
  await api.stop();

  // Stock, ledger and events against the packages.
  const check = await withClient(url, async (c) => {
    const entity = seed.entities.primary.id;
    const stock = await c.query(
      `WITH shipped AS (
         SELECT i.product_id, sum(i.quantity) AS q FROM package_items i JOIN packages p ON p.id = i.package_id
          WHERE p.entity_id = $1 AND p.status = 'shipped' AND p.order_id = ANY($4::uuid[]) GROUP BY i.product_id),
       ledger AS (SELECT balance_id, sum(quantity) AS q FROM inventory_transactions WHERE entity_id = $1 GROUP BY balance_id)
       SELECT count(*) FILTER (WHERE b.on_hand <> coalesce(l.q, 0))::int AS ledger_mismatch,
              count(*) FILTER (WHERE b.on_hand <> $2 - coalesce(s.q, 0))::int AS shipped_mismatch,
              coalesce(sum(s.q), 0)::int AS units
         FROM inventory_balances b
         LEFT JOIN ledger l ON l.balance_id = b.id
         LEFT JOIN shipped s ON s.product_id = b.product_id
        WHERE b.entity_id = $1 AND b.location_id = $3 AND b.product_id IN (SELECT product_id FROM shipped)`,
      [entity, OPENING_STOCK, locationId, lanes.map((l) => l.orderId)],
    );
    const ledger = await c.query(
      `SELECT count(*)::int AS packages,
              count(*) FILTER (WHERE e.n <> 1 OR e.unbalanced > 0 OR e.n IS NULL)::int AS bad_entries,
              count(*) FILTER (WHERE coalesce(ev.n, 0) <> 1)::int AS bad_events
         FROM packages p
         LEFT JOIN (SELECT source_id, count(*) AS n, count(*) FILTER (WHERE total_debit <> total_credit) AS unbalanced
                      FROM journal_entries WHERE entity_id = $1 AND source_type = 'FULFILLMENT' GROUP BY source_id) e
                ON e.source_id = p.id::text
         LEFT JOIN (SELECT data->'object'->>'id' AS id, count(*) AS n FROM outbox_events
                     WHERE entity_id = $1 AND type = 'fulfillment.shipped' GROUP BY 1) ev ON ev.id = p.id::text
        WHERE p.entity_id = $1 AND p.status = 'shipped' AND p.order_id = ANY($2::uuid[])`,
      [entity, lanes.map((l) => l.orderId)],
    );
    // The units kept per order line and package status against the packages' items.
    const lineUnits = await c.query(
      `WITH summed AS (
         SELECT i.order_item_id, p.status, sum(i.quantity) AS units FROM package_items i JOIN packages p ON p.id = i.package_id
          WHERE i.entity_id = $1 AND i.order_id = ANY($2::uuid[]) GROUP BY 1, 2),
       kept AS (
         SELECT order_item_id, status, units FROM package_line_units
          WHERE entity_id = $1 AND order_id = ANY($2::uuid[]) AND units <> 0)
       SELECT count(*)::int AS line_units_mismatch
         FROM summed s FULL JOIN kept k ON k.order_item_id = s.order_item_id AND k.status = s.status
        WHERE s.units IS DISTINCT FROM k.units`,
      [entity, lanes.map((l) => l.orderId)],
    );
    return { ...stock.rows[0], ...ledger.rows[0], ...lineUnits.rows[0] } as {
      line_units_mismatch: number;
      ledger_mismatch: number;
      shipped_mismatch: number;
      units: number;
      packages: number;
      bad_entries: number;
      bad_events: number;
    };
  });
  const disagreements =
    check.ledger_mismatch +
    check.shipped_mismatch +
    check.bad_entries +
    check.bad_events +
    check.line_units_mismatch;

  const pass = target;
  // Every package the clients made and nothing else: 3 per lane before the run, the run's, the traced ones.
  const made = 3 * CLIENTS + latencies.length + TRACE_PACKAGES;
  console.log(
    `\n${CLIENTS} clients, Node ${process.version}, ${os.cpus().length} CPUs, PostgreSQL ${embedded ? 'embedded' : new URL(adminUrl).host}, queue on ${process.env.REDIS_URL ? 'Redis' : 'PostgreSQL'}`,
  );
  console.log(
    `packages of 3 items with a sandbox label, fulfilled, ${DURATION_S} s: ${latencies.length} packages, ${perS.toFixed(1)}/s; ` +
      `p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms; errors ${errors}`,
  );
  console.log(
    `check over ${check.packages} shipped packages (${check.units} units): ${check.ledger_mismatch} balances differ from their ledger, ` +
      `${check.shipped_mismatch} from opening stock less shipped units, ${check.bad_entries} packages without exactly one balanced ` +
      `FULFILLMENT entry, ${check.bad_events} without exactly one fulfillment.shipped event, ` +
      `${check.line_units_mismatch} order lines whose kept units per status differ from their packages' items`,
  );
  const shipped = Math.max(1, latencies.length);
  const lockWaitMs = [...locks.waits.values()].reduce((a, b) => a + b, 0) * LOCK_SAMPLE_MS;
  console.log(
    `\nper package during the run: API CPU ${(apiCpuMs / shipped).toFixed(1)} ms, PostgreSQL backends CPU ${(dbCpuMs / shipped).toFixed(1)} ms ` +
      `(${pidsAfter.length} backends), lock waits ${(lockWaitMs / shipped).toFixed(1)} ms (sampled every ${LOCK_SAMPLE_MS} ms; ${locks.samples} samples); load average ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
  );
  for (const [what, n] of [...locks.waits.entries()].sort((a, b) => b[1] - a[1]).slice(0, 6))
    console.log(`  ${((n * LOCK_SAMPLE_MS) / shipped).toFixed(1).padStart(7)} ms/package waiting on ${what}`);
  console.log(
    `${TRACE_PACKAGES} sequential packages traced: ${trace.statements.toFixed(1)} statements in ${trace.batches.toFixed(1)} round trips per package, ` +
      `${trace.dbMs.toFixed(1)} ms in them, ${trace.ms.toFixed(1)} ms per request`,
  );
  if (process.env.BENCH_TRACE_VERBOSE === '1')
    for (const s of trace.stats)
      console.log(
        `  ${(s.count / TRACE_PACKAGES).toFixed(2).padStart(6)} × ${(s.totalMs / s.count).toFixed(2).padStart(6)} ms  ${s.sql.slice(0, process.env.BENCH_TRACE_CALLERS === '1' ? 400 : 150)}`,
      );
  console.log(`\nTargets${SMOKE ? ' (smoke mode: speed not judged)' : ''}`);
  console.log(
    `  ${pass(perS >= TARGETS.minPackagesPerS)}  ${perS.toFixed(1)} fulfilled packages/s (target >= ${TARGETS.minPackagesPerS})`,
  );
  console.log(
    `  ${pass(percentile(latencies, 99) < TARGETS.maxP99Ms)}  p99 ${percentile(latencies, 99).toFixed(1)} ms (target < ${TARGETS.maxP99Ms} ms)`,
  );
  console.log(
    `  ${verify(disagreements === 0, 'stock, ledger, events and kept units agree with the packages')}  ${disagreements} disagreements`,
  );
  console.log(`  ${verify(errors === 0, 'no failed request')}  ${errors} failed requests`);
  console.log(
    `  ${verify(check.packages === made, 'shipped packages are the ones made')}  ${check.packages} shipped packages, ${made} made`,
  );
}

runBench(main);
