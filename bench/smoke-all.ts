import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

/**
 * `npm run bench:smoke`: every benchmark in smoke mode (bench/smoke.ts), one after the other, each
 * in its own process with its own database (an embedded PostgreSQL of its own when DATABASE_URL
 * is unset). Prints one line per benchmark (its verdict, time and closing line), the output of
 * the ones that failed, and exits 1 when any failed. Speed is not judged; only the correctness
 * checks are. `npm run bench:smoke -- orders ledger` runs only those.
 */

const BENCHES: Record<string, string> = {
  platform: 'platform.bench.js',
  import: 'import.bench.js',
  webhooks: 'webhooks.bench.js',
  ledger: 'ledger.bench.js',
  orders: 'orders.bench.js',
  'order-lines': 'order-lines.bench.js',
  heap: 'heap-growth.bench.js',
  inventory: 'inventory.bench.js',
  fulfillment: 'fulfillment.bench.js',
  replenishment: 'replenishment.bench.js',
};

/** A benchmark that has not finished in this long has failed. */
const TIMEOUT_MS = 5 * 60_000;

function runOne(name: string): Promise<{ code: number | null; output: string; seconds: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(__dirname, BENCHES[name]), '--smoke'], {
      env: { ...process.env, BENCH_SMOKE: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => {
      output += `\nstopped after ${TIMEOUT_MS / 1000} s\n`;
      child.kill('SIGTERM');
    }, TIMEOUT_MS);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output, seconds: (performance.now() - started) / 1000 });
    });
  });
}

async function main() {
  const asked = process.argv.slice(2).filter((a) => !a.startsWith('-'));
  const unknown = asked.filter((name) => !BENCHES[name]);
  if (unknown.length) {
    console.error(`unknown benchmark(s): ${unknown.join(', ')}; known: ${Object.keys(BENCHES).join(', ')}`);
    process.exit(2);
  }
  const names = asked.length ? asked : Object.keys(BENCHES);
  console.log(
    `benchmarks in smoke mode (correctness checks only, speed not judged), ${os.cpus().length} CPUs, load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(
        ' ',
      )}, PostgreSQL ${process.env.DATABASE_URL ? new URL(process.env.DATABASE_URL).host : 'embedded, one per benchmark'}`,
  );
  const started = performance.now();
  const failed: { name: string; output: string }[] = [];
  for (const name of names) {
    const { code, output, seconds } = await runOne(name);
    const lines = output.trimEnd().split('\n');
    const verdict =
      [...lines].reverse().find((l) => l.startsWith('smoke: ')) ?? lines[lines.length - 1] ?? '(no output)';
    const ok = code === 0;
    console.log(
      `${ok ? 'ok    ' : 'FAILED'} ${`bench:${name}`.padEnd(20)} ${seconds.toFixed(0).padStart(4)} s  ${verdict.replace(/^smoke: /, '')}`,
    );
    if (!ok) failed.push({ name, output });
  }
  for (const { name, output } of failed) {
    const file = path.join(os.tmpdir(), `bench-smoke-${name}-${process.pid}.log`);
    writeFileSync(file, output);
    console.log(`\n--- bench:${name} (exit code not 0; whole output in ${file}), last lines:`);
    console.log(output.trimEnd().split('\n').slice(-40).join('\n'));
  }
  console.log(
    `\n${names.length - failed.length} of ${names.length} benchmarks passed their checks in smoke mode, ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
  process.exit(failed.length ? 1 : 0);
}

void main();
