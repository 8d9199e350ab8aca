import { performance } from 'node:perf_hooks';
import { runSeed } from '../scripts/seed-runner';
import { loadConfig } from '#platform/config/app-config';
import { migrate } from '#platform/persistence/database';
import { check, setting, target } from './smoke';
import { apiEnv, databaseServer, runBench, scratchDatabase, startServer, withClient } from './support';

/**
 * `npm run bench:replenishment`: the demand read paths at scale.
 *
 * On a fresh database seeded with the QA dataset, bulk-inserts with SQL `BENCH_PRODUCTS`
 * (10,000) products × 3 locations, their balances, two years of ledger rows (a shipment about
 * every `BENCH_EVERY_DAYS` (4.4) days per balance: about 5 M rows) and the per-day demand
 * aggregates those rows produce (what the stock-movement observer keeps in the writing
 * transaction). Then, against the real API (child process), times 200 sequential requests of
 * `GET /v1/purchasing/reorder-report?limit=100` (first page and last page) and of
 * `GET /v1/inventory/balances/{id}` with its run rates, and prints p50/p99 against the targets
 * (report page p99 < 150 ms, balance p99 < 20 ms). Exit code 0 either way for the targets.
 *
 * Checks (exit code 1 when one fails), on the first and the last page: every row is a balance of
 * the entity with the database's on_hand, available = on_hand − allocated, and each bench
 * product's suggestion follows its vendor's terms (0, or at least 24 and a multiple of 12). Smoke
 * mode (bench/smoke.ts): 50 products, 5 requests per route, the same checks.
 */

const PRODUCTS = setting('BENCH_PRODUCTS', 10_000, 50);
const EVERY_DAYS = Number(process.env.BENCH_EVERY_DAYS ?? 4.4);
const REQUESTS = setting('BENCH_REQUESTS', 200, 5);
const DAYS = 730;
const TARGETS = { reportP99Ms: 150, balanceP99Ms: 20 };

async function api(baseUrl: string, key: string, route: string, init: RequestInit = {}): Promise<unknown> {
  const res = await fetch(`${baseUrl}${route}`, {
    ...init,
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
  });
  const body = await res.json();
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${route}: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

async function timed(n: number, fn: () => Promise<unknown>): Promise<{ p50: number; p99: number }> {
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    await fn();
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))];
  return { p50: at(0.5), p99: at(0.99) };
}

async function bulkInsert(url: string, entityId: string, locations: string[]): Promise<number> {
  return withClient(url, async (c) => {
    await c.query('BEGIN');
    await c.query(
      `INSERT INTO products (id, entity_id, livemode, sku, name, type, status, unit_of_measure, list_price, currency)
       SELECT gen_random_uuid(), $1, true, 'BENCH-' || n, 'Bench product ' || n, 'standard', 'active', 'ea', 10, 'USD'
       FROM generate_series(1, $2::int) AS n`,
      [entityId, PRODUCTS],
    );
    await c.query(
      `INSERT INTO inventory_balances (id, entity_id, livemode, product_id, location_id, on_hand, unit_cost, value,
         safety_stock, stock_level)
       SELECT gen_random_uuid(), $1, true, p.id, l, 100 + (abs(hashtext(p.id::text || l)) % 400), 2, 200, 5, 'in_stock'
       FROM products p CROSS JOIN unnest($2::uuid[]) AS l
       WHERE p.entity_id = $1 AND p.sku LIKE 'BENCH-%'`,
      [entityId, locations],
    );
    // One shipment every EVERY_DAYS days per balance for two years, 1..5 units, staggered by balance.
    const { rowCount } = await c.query(
      `INSERT INTO inventory_transactions (id, entity_id, livemode, balance_id, product_id, location_id, type, quantity,
         unit_cost, value, source_type, occurred_at)
       SELECT gen_random_uuid(), b.entity_id, true, b.id, b.product_id, b.location_id, 'fulfillment',
              -(1 + (k % 5)), 2, -2 * (1 + (k % 5)), 'package',
              now() - make_interval(secs => ((k * $3::float8 + (abs(hashtext(b.id::text)) % 4)) * 86400)::int)
       FROM inventory_balances b CROSS JOIN generate_series(0, floor($2::float8 / $3::float8)::int) AS k
       WHERE b.entity_id = $1 AND b.safety_stock = 5`,
      [entityId, DAYS, EVERY_DAYS],
    );
    await c.query(
      `INSERT INTO demand_daily (entity_id, livemode, product_id, location_id, day, kind, units)
       SELECT entity_id, true, product_id, location_id, (occurred_at AT TIME ZONE 'UTC')::date, 'sale', sum(-quantity)
       FROM inventory_transactions WHERE entity_id = $1 AND type = 'fulfillment' AND source_type = 'package'
       GROUP BY entity_id, product_id, location_id, (occurred_at AT TIME ZONE 'UTC')::date
       ON CONFLICT DO NOTHING`,
      [entityId],
    );
    // A preferred vendor with an order multiple for every product (the report plans with it).
    const vendor = (
      await c.query(`SELECT id FROM accounts WHERE entity_id = $1 AND livemode ORDER BY id LIMIT 1`, [
        entityId,
      ])
    ).rows[0].id as string;
    await c.query(
      `INSERT INTO product_vendors (id, entity_id, livemode, product_id, vendor_account_id, currency, lead_time_days,
         min_order_quantity, order_multiple, is_preferred)
       SELECT gen_random_uuid(), $1, true, id, $2, 'USD', 14, 24, 12, true
       FROM products WHERE entity_id = $1 AND sku LIKE 'BENCH-%'`,
      [entityId, vendor],
    );
    await c.query('COMMIT');
    for (const table of [
      'products',
      'inventory_balances',
      'inventory_transactions',
      'demand_daily',
      'product_vendors',
    ])
      await c.query(`ANALYZE ${table}`);
    return rowCount ?? 0;
  });
}

async function main() {
  const { adminUrl } = await databaseServer();
  const url = await scratchDatabase(adminUrl, 'bench_replenishment');
  console.log(`database ${new URL(url).pathname.slice(1)} on ${new URL(url).host}`);
  await migrate(url);
  const seed = await runSeed(loadConfig({}, { DATABASE_URL: url, LOG_LEVEL: 'silent' }));
  const key = seed.entities.primary.keys.live;
  const child = await startServer(
    'the API',
    'api-server.js',
    apiEnv(url, { QUEUE_PREFIX: `benchrepl${process.pid}` }),
  );
  const locations: string[] = [];
  for (let i = 0; i < 3; i++) {
    const created = (await api(child.baseUrl, key, '/v1/locations', {
      method: 'POST',
      body: JSON.stringify({
        name: `Bench location ${i}`,
        code: `BENCH-L${i}-${process.pid}`,
        type: 'warehouse',
      }),
    })) as { id: string };
    locations.push(created.id);
  }
  const started = Date.now();
  const rows = await bulkInsert(url, seed.entities.primary.id, locations);
  console.log(
    `bulk insert: ${PRODUCTS.toLocaleString('en')} products × 3 locations, ${rows.toLocaleString('en')} ledger rows in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  const { lastCursor, balanceId } = await withClient(url, async (c) => {
    const oldest = await c.query(
      `SELECT id FROM inventory_balances WHERE entity_id = $1 AND livemode ORDER BY id ASC OFFSET 100 LIMIT 1`,
      [seed.entities.primary.id],
    );
    const any = await c.query(
      `SELECT id FROM inventory_balances WHERE entity_id = $1 AND safety_stock = 5 LIMIT 1`,
      [seed.entities.primary.id],
    );
    return { lastCursor: oldest.rows[0].id as string, balanceId: any.rows[0].id as string };
  });
  const first = await timed(REQUESTS, () =>
    api(child.baseUrl, key, '/v1/purchasing/reorder-report?limit=100'),
  );
  const last = await timed(REQUESTS, () =>
    api(child.baseUrl, key, `/v1/purchasing/reorder-report?limit=100&starting_after=${lastCursor}`),
  );
  const balance = await timed(REQUESTS, () => api(child.baseUrl, key, `/v1/inventory/balances/${balanceId}`));
  // The report's rows against the database: balances of the entity with their on_hand, and
  // suggestions that follow the bench vendor's terms (minimum 24, multiple of 12).
  type Row = {
    id: string;
    on_hand: number;
    allocated: number;
    available: number;
    sku: string | null;
    net_suggested_qty: number;
  };
  const reportRows: Row[] = [];
  for (const route of [
    '/v1/purchasing/reorder-report?limit=100',
    `/v1/purchasing/reorder-report?limit=100&starting_after=${lastCursor}`,
  ])
    reportRows.push(...((await api(child.baseUrl, key, route)) as { data: Row[] }).data);
  const stored = await withClient(url, async (c) => {
    const { rows: found } = await c.query<{ id: string; on_hand: string }>(
      `SELECT id, on_hand::text FROM inventory_balances WHERE entity_id = $1 AND livemode AND id = ANY($2::uuid[])`,
      [seed.entities.primary.id, reportRows.map((r) => r.id)],
    );
    return new Map(found.map((r) => [r.id, Number(r.on_hand)]));
  });
  const wrong = reportRows.filter(
    (r) =>
      stored.get(r.id) !== r.on_hand ||
      r.available !== r.on_hand - r.allocated ||
      (r.sku?.startsWith('BENCH-') &&
        r.net_suggested_qty !== 0 &&
        (r.net_suggested_qty < 24 || r.net_suggested_qty % 12 !== 0)),
  );
  const suggested = reportRows.filter((r) => r.sku?.startsWith('BENCH-') && r.net_suggested_qty > 0).length;
  console.log(
    `${check(reportRows.length > 100 && wrong.length === 0, 'report rows agree with the balances and the vendor terms')}  report rows checked: ${reportRows.length} (${suggested} bench suggestions), ${wrong.length} disagree${wrong.length ? `: ${JSON.stringify(wrong.slice(0, 2))}` : ''}`,
  );
  const verdict = (ms: number, limit: number) => target(ms < limit);
  console.log(
    `GET /v1/purchasing/reorder-report?limit=100 first page: p50 ${first.p50.toFixed(1)} ms, p99 ${first.p99.toFixed(1)} ms (${verdict(first.p99, TARGETS.reportP99Ms)} < ${TARGETS.reportP99Ms} ms)`,
  );
  console.log(
    `GET /v1/purchasing/reorder-report?limit=100 last page:  p50 ${last.p50.toFixed(1)} ms, p99 ${last.p99.toFixed(1)} ms (${verdict(last.p99, TARGETS.reportP99Ms)} < ${TARGETS.reportP99Ms} ms)`,
  );
  console.log(
    `GET /v1/inventory/balances/{id}: p50 ${balance.p50.toFixed(1)} ms, p99 ${balance.p99.toFixed(1)} ms (${verdict(balance.p99, TARGETS.balanceP99Ms)} < ${TARGETS.balanceP99Ms} ms)`,
  );
}

runBench(main);
