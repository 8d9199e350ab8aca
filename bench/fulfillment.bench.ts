import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { runSeed } from '../scripts/seed-runner';
import { loadConfig } from '../libs/platform/config/app-config';
import { migrate } from '../libs/platform/persistence/database';
import { apiEnv, databaseServer, runBench, scratchDatabase, startServer, withClient } from './support';

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
 */

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 20);
const CLIENTS = Number(process.env.BENCH_CONNECTIONS ?? 8);
const OPENING_STOCK = 1_000_000;
const TARGETS = { minPackagesPerS: 150, maxP99Ms: 250 };

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

async function call(
  baseUrl: string,
  key: string,
  method: string,
  route: string,
  body?: unknown,
): Promise<Answer> {
  const res = await fetch(`${baseUrl}${route}`, {
    method,
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
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

  const latencies: number[] = [];
  let errors = 0;
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
  latencies.sort((a, b) => a - b);
  const perS = latencies.length / elapsed;
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
    return { ...stock.rows[0], ...ledger.rows[0] } as {
      ledger_mismatch: number;
      shipped_mismatch: number;
      units: number;
      packages: number;
      bad_entries: number;
      bad_events: number;
    };
  });
  const disagreements = check.ledger_mismatch + check.shipped_mismatch + check.bad_entries + check.bad_events;

  const pass = (ok: boolean) => (ok ? 'PASS' : 'FAIL');
  console.log(
    `\n${CLIENTS} clients, Node ${process.version}, ${os.cpus().length} CPUs, PostgreSQL ${embedded ? 'embedded' : new URL(adminUrl).host}`,
  );
  console.log(
    `packages of 3 items with a sandbox label, fulfilled, ${DURATION_S} s: ${latencies.length} packages, ${perS.toFixed(1)}/s; ` +
      `p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms; errors ${errors}`,
  );
  console.log(
    `check over ${check.packages} shipped packages (${check.units} units): ${check.ledger_mismatch} balances differ from their ledger, ` +
      `${check.shipped_mismatch} from opening stock less shipped units, ${check.bad_entries} packages without exactly one balanced ` +
      `FULFILLMENT entry, ${check.bad_events} without exactly one fulfillment.shipped event`,
  );
  console.log('\nTargets');
  console.log(
    `  ${pass(perS >= TARGETS.minPackagesPerS)}  ${perS.toFixed(1)} fulfilled packages/s (target >= ${TARGETS.minPackagesPerS})`,
  );
  console.log(
    `  ${pass(percentile(latencies, 99) < TARGETS.maxP99Ms)}  p99 ${percentile(latencies, 99).toFixed(1)} ms (target < ${TARGETS.maxP99Ms} ms)`,
  );
  console.log(
    `  ${pass(disagreements === 0 && errors === 0)}  ${disagreements} disagreements, ${errors} failed requests`,
  );
}

runBench(main);
