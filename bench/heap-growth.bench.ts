import { execFileSync } from 'node:child_process';
import { HEAP_GROWING_PERCENT } from '../apps/api/heap-growth';

/**
 * `npm run bench:heap`: what the API's heap-growth limit (apps/api/heap-growth.ts) saves on a
 * promoting workload, measured in two child processes (GC behaviour, so a measurement, not a test).
 */
/**
 * A process that keeps a live set and promotes short-lived garbage, as the API does under load;
 * prints the largest heap it reached. With the setting applied at run time (as limitHeapGrowth
 * does) the heap stays near twice the live set instead of growing towards four times it.
 */
const CHURN = `
  const v8 = require('node:v8');
  if (process.argv[1] !== 'default') v8.setFlagsFromString('--heap-growing-percent=' + process.argv[1]);
  const live = Array.from({ length: 300000 }, (_, i) => ({ i, s: 'live' + i, a: [i, i + 1] }));
  const recent = new Array(300000);
  let peak = 0;
  for (let round = 0; round < 6000000; round++) {
    recent[round % recent.length] = { round, s: 'garbage' + round, a: [round, round] };
    if (round % 1000 === 0) peak = Math.max(peak, process.memoryUsage().heapTotal);
  }
  console.log(JSON.stringify({ peak, live: live.length }));
`;

const peakOf = (setting: string) =>
  (
    JSON.parse(execFileSync(process.execPath, ['-e', CHURN, setting], { encoding: 'utf8' })) as {
      peak: number;
    }
  ).peak;

const limited = peakOf(String(HEAP_GROWING_PERCENT));
const unlimited = peakOf('default');
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
// Measured 160-170 MB against 280 MB.
process.stdout.write(
  `peak heap with --heap-growing-percent=${HEAP_GROWING_PERCENT}: ${mb(limited)} MB; V8 default: ${mb(unlimited)} MB; ` +
    `ratio ${(limited / unlimited).toFixed(2)} (target < 0.80: ${limited < unlimited * 0.8 ? 'PASS' : 'FAIL'})\n`,
);
