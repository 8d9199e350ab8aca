import { execFileSync } from 'node:child_process';
import { HEAP_GROWING_PERCENT } from '../apps/api/heap-growth';
import { check, reportChecks, SMOKE, target } from './smoke';

/**
 * `npm run bench:heap`: what the API's heap-growth limit (apps/api/heap-growth.ts) saves on a
 * promoting workload, measured in two child processes (GC behaviour, so a measurement, not a test).
 * It has no correctness check beyond both processes finishing with their live set whole; smoke
 * mode (bench/smoke.ts) runs a tenth of the work and does not judge the ratio.
 */
/**
 * A process that keeps a live set and promotes short-lived garbage, as the API does under load;
 * prints the largest heap it reached. With the setting applied at run time (as limitHeapGrowth
 * does) the heap stays near twice the live set instead of growing towards four times it.
 */
const CHURN = `
  const v8 = require('node:v8');
  if (process.argv[1] !== 'default') v8.setFlagsFromString('--heap-growing-percent=' + process.argv[1]);
  const size = Number(process.argv[2]);
  const live = Array.from({ length: size }, (_, i) => ({ i, s: 'live' + i, a: [i, i + 1] }));
  const recent = new Array(size);
  let peak = 0;
  for (let round = 0; round < size * 20; round++) {
    recent[round % recent.length] = { round, s: 'garbage' + round, a: [round, round] };
    if (round % 1000 === 0) peak = Math.max(peak, process.memoryUsage().heapTotal);
  }
  console.log(JSON.stringify({ peak, live: live.filter((x, i) => x.i === i).length }));
`;

/** The live set's size; the churn makes twenty times as many short-lived objects. */
const LIVE = SMOKE ? 30_000 : 300_000;

const peakOf = (setting: string) => {
  const { peak, live } = JSON.parse(
    execFileSync(process.execPath, ['-e', CHURN, setting, String(LIVE)], { encoding: 'utf8' }),
  ) as { peak: number; live: number };
  check(peak > 0 && live === LIVE, `the churn with heap growing setting ${setting} kept its live set`);
  return peak;
};

const limited = peakOf(String(HEAP_GROWING_PERCENT));
const unlimited = peakOf('default');
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
// Measured 160-170 MB against 280 MB.
process.stdout.write(
  `peak heap with --heap-growing-percent=${HEAP_GROWING_PERCENT}: ${mb(limited)} MB; V8 default: ${mb(unlimited)} MB; ` +
    `ratio ${(limited / unlimited).toFixed(2)} (target < 0.80: ${target(limited < unlimited * 0.8)})\n`,
);
process.exitCode = reportChecks() ? 0 : 1;
