import { performance } from 'node:perf_hooks';
import { runSeed } from '../scripts/seed-runner';
import { loadConfig } from '#platform/config/app-config';
import { migrate } from '#platform/persistence/database';
import { check, setting, SMOKE, target } from './smoke';
import { apiEnv, cpuMs, databaseServer, jsonCaller, runBench, scratchDatabase, startServer } from './support';

/**
 * `npm run bench:order-lines`: the cost of `POST /v1/orders/{id}/lines` on a small and on a
 * large order. For each order size (10 and 980 lines, created in one request) and each status
 * (a draft, and a confirmed sales order whose lines commit stock), one order takes
 * BENCH_ADD_RUNS lines one after another (default 15, at most 19 so the large order stays under
 * the 1,000-line cap; the first add is a warm-up, not measured). Prints, per case, the median and the slowest wall time of an add, the
 * API's CPU time per add and the size of the response, the median and CPU time of as many reads
 * of the same order (`GET /v1/orders/{id}`: what the answer's shape alone costs), then
 * the ratio of the large order's median to the small one's. CPU time is the verdict's measure
 * (wall times swing with the machine's load): PASS when, for both statuses, the add's API CPU
 * time beyond a GET's grows by at most 6 ms from the small order to the large one. The answer
 * (and the event) carry every line, so only the work beyond rendering the order can stay flat.
 * Each order read back must hold every line added, in positions 0 to n − 1 (exit code 1
 * otherwise). Smoke mode (bench/smoke.ts): orders of 10 and 100 lines, 3 adds each.
 */

const SIZES = SMOKE ? [10, 100] : [10, 980];
const RUNS = Math.min(19, setting('BENCH_ADD_RUNS', 15, 4));
/**
 * The add's API CPU time beyond a read's of the same order may grow by at most this much from
 * the small order to the large one: about one more rendering of the order (the event's copy).
 */
const MAX_WRITE_GROWTH_MS = 6;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

async function main(): Promise<void> {
  const url = await scratchDatabase((await databaseServer()).adminUrl, 'bench_order_lines');
  await migrate(url);
  const seed = await runSeed(loadConfig({}, { DATABASE_URL: url, LOG_LEVEL: 'silent' }));
  const api = await startServer('the API', 'api-server.js', apiEnv(url));
  const call = jsonCaller(api.baseUrl, seed.entities.primary.keys.live);
  const accountId = seed.fixtures.account_id as string;
  const productId = seed.fixtures.product_id as string;
  const line = (i: number) => ({
    product_id: productId,
    quantity: 1 + (i % 3),
    unit_price: 10.05,
    tax_rate: 8.25,
  });

  const results: {
    status: string;
    size: number;
    medianMs: number;
    getMs: number;
    getCpuMs: number;
    maxMs: number;
    cpuMs: number;
    kb: number;
  }[] = [];
  for (const status of ['draft', 'confirmed'] as const) {
    for (const size of SIZES) {
      const created = await call('POST', '/v1/orders', {
        account_id: accountId,
        lines: Array.from({ length: size }, (_, i) => line(i)),
      });
      if (created.status !== 201)
        throw new Error(`create: ${created.status} ${JSON.stringify(created.body)}`);
      const orderId = created.body.id as string;
      if (status === 'confirmed') {
        const confirmed = await call('POST', `/v1/orders/${orderId}/confirm`, {});
        if (confirmed.status !== 200) throw new Error(`confirm: ${confirmed.status}`);
      }
      // One add before measuring warms the route's code paths for this shape of order.
      await call('POST', `/v1/orders/${orderId}/lines`, line(size));
      const times: number[] = [];
      let bytes = 0;
      const cpuBefore = cpuMs(api.child.pid!);
      for (let i = 0; i < RUNS - 1; i++) {
        const start = performance.now();
        const res = await call('POST', `/v1/orders/${orderId}/lines`, line(size + 1 + i));
        times.push(performance.now() - start);
        if (res.status !== 201) throw new Error(`add line: ${res.status} ${JSON.stringify(res.body)}`);
        bytes = JSON.stringify(res.body).length;
      }
      const cpu = (cpuMs(api.child.pid!) - cpuBefore) / times.length;
      // The same order read back, as many times: what the answer's shape alone costs.
      const reads: number[] = [];
      const readCpuBefore = cpuMs(api.child.pid!);
      for (let i = 0; i < RUNS - 1; i++) {
        const start = performance.now();
        const res = await call('GET', `/v1/orders/${orderId}`);
        reads.push(performance.now() - start);
        if (res.status !== 200) throw new Error(`retrieve: ${res.status}`);
        if (i === 0) {
          // The order holds the lines it was made with, the warm-up add and the measured adds.
          const positions = (res.body.lines as { position: number }[]).map((l) => l.position);
          const expected = size + RUNS;
          check(
            positions.length === expected && positions.every((p, at) => p === at),
            `the ${status} order of ${size} lines holds ${expected} lines after its adds`,
          );
          if (positions.length !== expected)
            console.log(
              `FAIL  ${status} order of ${size} lines: ${positions.length} lines, expected ${expected}`,
            );
        }
      }
      const getCpu = (cpuMs(api.child.pid!) - readCpuBefore) / reads.length;
      results.push({
        status,
        size,
        medianMs: median(times),
        getMs: median(reads),
        getCpuMs: getCpu,
        maxMs: Math.max(...times),
        cpuMs: cpu,
        kb: bytes / 1024,
      });
    }
  }
  console.log(
    '| order status | lines before | adds | add: median ms | add: slowest ms | add: API CPU ms | response KiB | GET: median ms | GET: API CPU ms | add − GET: API CPU ms |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  const write = (r: (typeof results)[number]) => r.cpuMs - r.getCpuMs;
  for (const r of results)
    console.log(
      `| ${r.status} | ${r.size + 1} | ${RUNS - 1} | ${r.medianMs.toFixed(1)} | ${r.maxMs.toFixed(1)} | ${r.cpuMs.toFixed(1)} | ${r.kb.toFixed(1)} | ${r.getMs.toFixed(1)} | ${r.getCpuMs.toFixed(1)} | ${write(r).toFixed(1)} |`,
    );
  for (const status of ['draft', 'confirmed']) {
    const [small, large] = results.filter((r) => r.status === status);
    const growth = write(large) - write(small);
    console.log(
      `${status}: add median at ${large.size + 1} lines / at ${small.size + 1} lines = ${(large.medianMs / small.medianMs).toFixed(2)}; ` +
        `add − GET API CPU grows by ${growth.toFixed(1)} ms (target ≤ ${MAX_WRITE_GROWTH_MS} ms): ${target(growth <= MAX_WRITE_GROWTH_MS)}`,
    );
  }
}

runBench(main);
