import { readFileSync } from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { Client } from 'pg';
import { runSeed } from '../scripts/seed-runner';
import { loadConfig } from '#platform/config/app-config';
import { migrate } from '#platform/persistence/database';
import { newId } from '#platform/persistence/ids';
import { check, setting, SMOKE, target } from './smoke';
import {
  apiEnv,
  databaseServer,
  jsonCaller,
  onCleanup,
  runBench,
  scratchDatabase,
  startServer,
} from './support';

/**
 * `npm run bench:orders`: GET /v1/orders?limit=100&expand[]=account on a database holding
 * 100,000 orders (one line each) of the QA entity and 10,000 orders for each of 10 other
 * entities, inserted with SQL in bulk. Prints requests/s, p50 and p99 under load (autocannon)
 * for the first page and for a page deep in the list (cursor after 90,000 records), then the
 * p99 of both measured sequentially and interleaved (so machine noise hits both alike): keyset
 * pagination must keep the deep page within 1.5x of the first.
 *
 * A bare Node `http` + `pg` server (bench/orders-baseline-server.ts) answers the same two pages
 * with the same SQL and the same JSON (checked body for body before the runs); the API must make
 * at least half of its requests/s on the first page, measured side by side in the same run.
 * The check also covers a page of documents made through the API before the bulk rows (so the
 * oldest in the list), with every field the bulk rows leave empty set: converted quote, revised
 * and acknowledged sales order, issued and partly paid invoice on payment terms, cancelled and
 * voided orders, tags, an account with tags, terms and a credit limit. A field added to the API's
 * order or account without the baseline following makes the benchmark stop there.
 *
 * Smoke mode (bench/smoke.ts): 1,000 orders and 10 × 100 for the others, runs of 1 s, the same
 * checks.
 */

const ORDERS = setting('BENCH_ORDERS', 100_000, 1_000);
const OTHER_ENTITIES = 10;
const OTHER_ORDERS = setting('BENCH_OTHER_ORDERS', 10_000, 100);
/** The deep page's cursor: after this many listed records, with a full page after it (95 % are listed). */
const DEEP = Math.min(setting('BENCH_DEEP', 90_000, 800), Math.floor(ORDERS * 0.95) - 100);
const DURATION_S = setting('BENCH_DURATION_S', 10, 1);
const WARMUP_S = setting('BENCH_WARMUP_S', 2, 0);
const CONNECTIONS = setting('BENCH_CONNECTIONS', 10, 4);
const MAX_DEEP_RATIO = 1.5;
const MIN_BASELINE_RATIO = 0.5;
const SEQUENTIAL_ROUNDS = setting('BENCH_SEQUENTIAL_ROUNDS', 200, 10);
const CHUNK = 10_000;
/** 95 % of the orders are in the default list (quotes, sales orders, invoices), so 90,000 of them can be paged past. */
const TYPES = [
  ...Array.from({ length: 19 }, (_, i) => ['quote', 'sales_order', 'invoice'][i % 3]),
  'return',
  ...Array.from({ length: 19 }, (_, i) => ['sales_order', 'invoice', 'quote'][i % 3]),
  'purchase_order',
];

/** Bulk-inserts `count` orders with one line each for (entity, livemode); returns the ids in creation order. */
async function insertOrders(
  db: Client,
  entityId: string,
  accountId: string,
  count: number,
): Promise<string[]> {
  const ids: string[] = [];
  const start = Date.now() - count;
  for (let offset = 0; offset < count; offset += CHUNK) {
    const n = Math.min(CHUNK, count - offset);
    const orderIds = Array.from({ length: n }, () => newId());
    const lineIds = Array.from({ length: n }, () => newId());
    const types = orderIds.map((_, i) => TYPES[(offset + i) % TYPES.length]);
    const created = orderIds.map((_, i) => new Date(start + offset + i).toISOString());
    ids.push(...orderIds);
    await db.query(
      `INSERT INTO orders (id, entity_id, livemode, created_at, updated_at, document_type, account_id, currency, order_status, payment_status,
         subtotal, total, amount_due)
       SELECT id, $2, true, created, created, type, $3, 'USD', 'draft', 'unpaid', 25, 25, 25
       FROM unnest($1::uuid[], $4::text[], $5::timestamptz[]) AS t(id, type, created)`,
      [orderIds, entityId, accountId, types, created],
    );
    await db.query(
      `INSERT INTO order_lines (id, entity_id, livemode, created_at, updated_at, order_id, position, description, quantity, unit_price, list_price, subtotal, total)
       SELECT lid, $2, true, now(), now(), oid, 0, 'Bench widget', 1, 25, 25, 25, 25
       FROM unnest($1::uuid[], $3::uuid[]) AS t(oid, lid)`,
      [orderIds, entityId, lineIds],
    );
  }
  return ids;
}

/**
 * Documents made through the API with the fields the bulk rows leave empty set, for the JSON
 * check against the baseline: returns their ids.
 */
async function documentsWithEveryField(baseUrl: string, key: string, productId: string): Promise<string[]> {
  const call = jsonCaller(baseUrl, key);
  const must = async (method: string, route: string, body: unknown, status: number) => {
    const res = await call(method, route, body);
    if (res.status !== status)
      throw new Error(`${method} ${route}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
    return res.body as { id: string } & Record<string, unknown>;
  };
  const stamp = `${process.pid}-${Date.now().toString(36)}`;
  const terms = await must(
    'POST',
    '/v1/payment-terms',
    { name: 'Bench net 30', code: `BN${stamp}`, net_days: 30 },
    201,
  );
  const tag = await must('POST', '/v1/tags', { name: `Bench tag ${stamp}`, color: '#1f6feb' }, 201);
  const account = await must(
    'POST',
    '/v1/accounts',
    {
      name: 'Bench customer with every field',
      email: 'ap@bench.example',
      phone: '+1 415 555 0100',
      tax_id: 'DE123456789',
      credit_limit: 5000.5,
      payment_terms_id: terms.id,
      metadata: { legacy_id: 'A-1' },
    },
    201,
  );
  await must('POST', `/v1/accounts/${account.id}/tags`, { tag_id: tag.id }, 200);
  const lines = [
    { product_id: productId, quantity: 3, unit_price: 19.99, discount_percent: 10, tax_rate: 8.25 },
    { description: 'Bench service', quantity: 1.5, unit_price: 40.125, discount_amount: 2, tax_rate: 7 },
  ];
  const draft = (body: Record<string, unknown>) =>
    must('POST', '/v1/orders', { account_id: account.id, lines, ...body }, 201);
  const ids: string[] = [];
  // A quote, tagged, converted to a sales order that is confirmed, sent, revised and acknowledged.
  const quote = await draft({ document_type: 'quote', notes: 'Bench quote', metadata: { legacy_id: 'Q-1' } });
  await must('POST', `/v1/orders/${quote.id}/tags`, { tag_id: tag.id }, 200);
  const order = await must('POST', `/v1/orders/${quote.id}/convert`, {}, 200);
  await must('POST', `/v1/orders/${order.id}/confirm`, {}, 200);
  await must('POST', `/v1/orders/${order.id}/send`, {}, 200);
  await must(
    'POST',
    `/v1/orders/${order.id}/lines`,
    { description: 'Bench extra', quantity: 1, unit_price: 5 },
    201,
  );
  await must('POST', `/v1/orders/${order.id}/customer-acknowledge-revision`, {}, 200);
  ids.push(quote.id, order.id);
  // An invoice issued on the account's terms (a due date), partly paid.
  const invoice = await draft({ document_type: 'invoice', notes: 'Bench invoice' });
  await must('POST', `/v1/orders/${invoice.id}/confirm`, {}, 200);
  await must('POST', `/v1/orders/${invoice.id}/payments`, { method: 'cash', amount: 10 }, 201);
  ids.push(invoice.id);
  // A cancelled sales order and a voided invoice.
  const cancelled = await draft({});
  await must('POST', `/v1/orders/${cancelled.id}/cancel`, {}, 200);
  const voided = await draft({ document_type: 'invoice' });
  await must('POST', `/v1/orders/${voided.id}/confirm`, {}, 200);
  await must('POST', `/v1/orders/${voided.id}/void`, {}, 200);
  ids.push(cancelled.id, voided.id);
  return ids;
}

/**
 * The paths of `value`'s fields that are null, zero, false or empty in every element of the
 * arrays they sit in, across `values`: what the JSON check cannot see a wrong value of.
 */
function neverSet(values: unknown[]): string[] {
  const set = new Set<string>();
  const seen = new Set<string>();
  const walk = (v: unknown, at: string) => {
    if (Array.isArray(v)) {
      if (v.length) set.add(at);
      for (const item of v) walk(item, `${at}[]`);
    } else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) walk(x, at ? `${at}.${k}` : k);
      set.add(at);
    } else {
      seen.add(at);
      if (v !== null && v !== 0 && v !== false && v !== '') set.add(at);
    }
  };
  for (const v of values) walk(v, '');
  return [...seen].filter((p) => !set.has(p)).sort();
}

async function run(baseUrl: string, route: string, key: string, duration: number) {
  const result = await autocannon({
    url: `${baseUrl}${route}`,
    headers: { Authorization: `Bearer ${key}` },
    connections: CONNECTIONS,
    duration,
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    bad: result.non2xx + result.errors + result.timeouts,
  };
}

/** Sequential requests alternating between the two routes, so machine noise hits both alike; latencies in ms. */
async function interleaved(
  baseUrl: string,
  routes: [string, string],
  key: string,
  rounds: number,
): Promise<[number[], number[]]> {
  const times: [number[], number[]] = [[], []];
  for (let i = 0; i < rounds; i++) {
    for (const which of [0, 1] as const) {
      const started = performance.now();
      const res = await fetch(`${baseUrl}${routes[which]}`, { headers: { Authorization: `Bearer ${key}` } });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${routes[which]}: ${res.status}`);
      times[which].push(performance.now() - started);
    }
  }
  return times;
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

async function main() {
  const url = await scratchDatabase((await databaseServer()).adminUrl, 'bench_orders');
  await migrate(url);
  const seed = await runSeed(loadConfig({}, { DATABASE_URL: url, LOG_LEVEL: 'silent' }));
  const key = seed.entities.primary.keys.live;
  const db = new Client({ connectionString: url });
  await db.connect();
  onCleanup(() => db.end());
  const api = await startServer('the API', 'api-server.js', apiEnv(url));
  const richIds = await documentsWithEveryField(api.baseUrl, key, seed.fixtures.product_id as string);
  const started = Date.now();
  for (let e = 0; e < OTHER_ENTITIES; e++) {
    const entityId = newId();
    const accountId = newId();
    await db.query(
      `INSERT INTO accounts (id, entity_id, livemode, name, currency) VALUES ($1, $2, true, 'Other', 'USD')`,
      [accountId, entityId],
    );
    await insertOrders(db, entityId, accountId, OTHER_ORDERS);
  }
  const ids = await insertOrders(db, seed.entities.primary.id, seed.fixtures.account_id as string, ORDERS);
  await db.query('ANALYZE');
  console.log(
    `inserted ${ORDERS} orders for the QA entity and ${OTHER_ENTITIES} x ${OTHER_ORDERS} for others in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );

  // Newest first over quotes, sales orders and invoices: find the cursor after DEEP listed records.
  const listed = (
    await db.query(
      `SELECT id FROM orders WHERE entity_id = $1 AND livemode = true AND document_type IN ('quote', 'sales_order', 'invoice') ORDER BY id DESC OFFSET $2 LIMIT 1`,
      [seed.entities.primary.id, DEEP - 1],
    )
  ).rows[0] as { id: string } | undefined;
  if (!listed) throw new Error('not enough listed orders for the deep cursor');
  const baseline = await startServer(
    'baseline',
    'orders-baseline-server.js',
    apiEnv(url, { ENTITY_ID: seed.entities.primary.id, LIVEMODE: 'true' }),
  );
  const first = '/v1/orders?limit=100&expand[]=account';
  const deep = `${first}&starting_after=${listed.id}`;
  // The page after the oldest listed bulk order holds the documents made through the API before
  // the bulk rows.
  const oldestBulk = (
    await db.query(
      `SELECT id FROM orders WHERE entity_id = $1 AND livemode AND document_type IN ('quote', 'sales_order', 'invoice') AND id = ANY($2::uuid[]) ORDER BY id LIMIT 1`,
      [seed.entities.primary.id, ids],
    )
  ).rows[0] as { id: string };
  const oldest = `${first}&starting_after=${oldestBulk.id}`;
  const compared: unknown[] = [];
  for (const route of [first, deep, oldest]) {
    const [res, base] = await Promise.all(
      [api, baseline].map((s) =>
        fetch(`${s.baseUrl}${route}`, { headers: { Authorization: `Bearer ${key}` } }),
      ),
    );
    const text = await res.text();
    const body = JSON.parse(text) as { data: { id: string; account: { object: string } }[] };
    const expected =
      route === oldest
        ? body.data.filter((o) => richIds.includes(o.id)).length === richIds.length
        : body.data.length === 100;
    if (res.status !== 200 || !expected || body.data.some((o) => o.account?.object !== 'account'))
      throw new Error(`unexpected answer on ${route}: ${res.status}, ${body.data.length} orders`);
    compared.push(...body.data);
    const baseText = await base.text();
    if (check(baseText === text, `the baseline's JSON equals the API's on ${route}`) === 'FAIL') {
      let i = 0;
      while (i < text.length && text[i] === baseText[i]) i++;
      throw new Error(
        `the baseline's JSON differs from the API's on ${route} at character ${i}: API ...${text.slice(Math.max(0, i - 80), i + 80)}... baseline ...${baseText.slice(Math.max(0, i - 80), i + 80)}...`,
      );
    }
  }
  const unset = neverSet(compared);
  console.log(
    `the baseline answers the first, the deep and the oldest page (${richIds.length} documents made through the API) with the same JSON as the API` +
      (unset.length ? `; fields empty in every compared order: ${unset.join(', ')}` : ''),
  );
  if (WARMUP_S > 0) {
    await run(api.baseUrl, first, key, WARMUP_S);
    await run(api.baseUrl, deep, key, WARMUP_S);
    await run(baseline.baseUrl, first, key, WARMUP_S);
  }
  // BENCH_BEFORE_DIR: another build's compiled bench/ (e.g. the main branch's), loaded side by side.
  const before = process.env.BENCH_BEFORE_DIR
    ? await startServer('api-before', 'api-server.js', apiEnv(url), process.env.BENCH_BEFORE_DIR)
    : undefined;
  if (before && WARMUP_S > 0) await run(before.baseUrl, first, key, WARMUP_S);
  // Side by side: the API's first page, the baseline's, then the API's deep page.
  const a = await run(api.baseUrl, first, key, DURATION_S);
  const previous = before ? await run(before.baseUrl, first, key, DURATION_S) : undefined;
  if (before) await before.stop();
  const base = await run(baseline.baseUrl, first, key, DURATION_S);
  const baseDeep = await run(baseline.baseUrl, deep, key, DURATION_S);
  const b = await run(api.baseUrl, deep, key, DURATION_S);
  const memory = readFileSync(`/proc/${api.child.pid}/status`, 'utf8');
  const hwm = Number(/^VmHWM:\s+(\d+) kB/m.exec(memory)?.[1] ?? NaN) / 1024;
  const [firstTimes, deepTimes] = await interleaved(api.baseUrl, [first, deep], key, SEQUENTIAL_ROUNDS);
  const seqFirst = percentile(firstTimes, 99);
  const seqDeep = percentile(deepTimes, 99);
  const ratio = seqDeep / seqFirst;
  console.log(
    `\nautocannon: ${CONNECTIONS} connections, ${DURATION_S} s per run, ${ids.length} orders of the QA entity, Node ${process.version}, ${os.cpus().length} CPUs`,
  );
  console.log(
    `first page  GET ${first}: ${a.rps.toFixed(0)} req/s, p50 ${a.p50} ms, p99 ${a.p99} ms, non-2xx/errors ${a.bad}`,
  );
  console.log(
    `deep page   (cursor after ${DEEP} records): ${b.rps.toFixed(0)} req/s, p50 ${b.p50} ms, p99 ${b.p99} ms, non-2xx/errors ${b.bad}`,
  );
  console.log(
    `sequential, one connection, ${SEQUENTIAL_ROUNDS} requests each, interleaved: first page p50 ${percentile(firstTimes, 50).toFixed(1)} ms, p99 ${seqFirst.toFixed(1)} ms; deep page p50 ${percentile(deepTimes, 50).toFixed(1)} ms, p99 ${seqDeep.toFixed(1)} ms`,
  );
  console.log(
    `baseline    first page: ${base.rps.toFixed(0)} req/s, p50 ${base.p50} ms, p99 ${base.p99} ms; deep page ${baseDeep.rps.toFixed(0)} req/s (bare http + pg, same SQL and JSON)`,
  );
  console.log(`API peak RSS (VmHWM) ${hwm.toFixed(0)} MB`);
  if (previous) {
    console.log(
      `before (${process.env.BENCH_BEFORE_DIR}): first page ${previous.rps.toFixed(0)} req/s, p99 ${previous.p99} ms, ${((previous.rps / base.rps) * 100).toFixed(0)} % of the baseline`,
    );
  }
  const share = a.rps / base.rps;
  console.log(
    `\n${target(ratio <= MAX_DEEP_RATIO)}  deep page p99 / first page p99 (sequential) = ${ratio.toFixed(2)} (target <= ${MAX_DEEP_RATIO}); under load ${(b.p99 / Math.max(a.p99, 1)).toFixed(2)}`,
  );
  console.log(
    `${target(share >= MIN_BASELINE_RATIO)}  first page: API ${(share * 100).toFixed(0)} % of the bare Node + pg baseline's req/s (target >= ${MIN_BASELINE_RATIO * 100} %); deep page ${((b.rps / baseDeep.rps) * 100).toFixed(0)} %`,
  );
  console.log(
    `${check(a.bad + b.bad + base.bad + baseDeep.bad === 0, 'every answer under load a 2xx')}  non-2xx answers and errors under load: API ${a.bad + b.bad}, baseline ${base.bad + baseDeep.bad}`,
  );
  if (SMOKE) console.log('(smoke mode: speed targets not judged)');
}

runBench(main);
