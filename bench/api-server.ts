import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { performance } from 'node:perf_hooks';
import { Controller, Get, Module } from '@nestjs/common';
import { Client } from 'pg';
import pino from 'pino';
import { createApiApp } from '../apps/api/bootstrap';
import { limitHeapGrowth } from '../apps/api/heap-growth';
import { Public, RequireScopes } from '#platform/auth/decorators';
import { RateLimiter } from '#platform/auth/rate-limiter';
import { loadConfig } from '#platform/config/app-config';

/**
 * Benchmark entry: boots the real API (whole pipeline) on HOST:PORT from the environment
 * and prints `{"port":n}` on stdout once it listens. With an IPC channel it also answers
 * `trace-on` / `trace-off` messages with per-statement SQL counts and timings, so the
 * benchmark can show how many round trips a request costs.
 */

interface SqlStat {
  count: number;
  totalMs: number;
}

let tracing = false;
const stats = new Map<string, SqlStat>();

/**
 * With BENCH_TRACE_CALLERS=1, each traced statement is keyed by its SQL and the first frames of
 * our own code that issued it (from the async stack), to see which service a statement comes from.
 */
const traceCallers = process.env.BENCH_TRACE_CALLERS === '1';
function callers(): string {
  Error.stackTraceLimit = 60;
  const frames = (new Error().stack ?? '')
    .split('\n')
    .filter((l) => l.includes('/dist/libs/') && !l.includes('/persistence/'))
    .slice(0, 3)
    .map((l) =>
      l
        .trim()
        .replace(/^at (async )?/, '')
        .replace(/\(.*\/dist\/libs\//, '(')
        .replace(/:\d+\)$/, ')'),
    );
  return frames.length ? `  <- ${frames.join(' < ')}` : '';
}

/**
 * BENCH_TRACE_ORDER=<file>: the traced statements in the order they were issued, each with its
 * batch (statements issued before the next process.nextTick leave in one socket write), written
 * to that file at trace-off.
 */
const orderFile = process.env.BENCH_TRACE_ORDER;
const order: string[] = [];
let batch = 0;
let batchOpen = false;
function noteOrder(sql: string): void {
  if (!batchOpen) {
    batchOpen = true;
    batch += 1;
    process.nextTick(() => (batchOpen = false));
  }
  if (orderFile) order.push(`${String(batch).padStart(5)}  ${sql.replace(/\s+/g, ' ').trim().slice(0, 140)}`);
}

function record(sql: string, started: number, caller = ''): void {
  const text =
    sql
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, traceCallers ? 90 : undefined) + caller;
  const entry = stats.get(text) ?? { count: 0, totalMs: 0 };
  entry.count += 1;
  entry.totalMs += performance.now() - started;
  stats.set(text, entry);
}

type QueryFn = (...args: unknown[]) => unknown;
const proto = Client.prototype as unknown as { query: QueryFn };
const originalQuery = proto.query;
proto.query = function tracedQuery(this: unknown, ...args: unknown[]) {
  if (!tracing) return originalQuery.apply(this, args);
  const first = args[0] as string | { text?: string };
  const sql = typeof first === 'string' ? first : (first?.text ?? '<query object>');
  const started = performance.now();
  noteOrder(sql);
  const caller = traceCallers ? callers() : '';
  // A submitted Query (the pool's named statements): its callback answers.
  const submitted = first as { submit?: unknown; callback?: QueryFn };
  if (typeof submitted?.submit === 'function' && typeof submitted.callback === 'function') {
    const answer = submitted.callback;
    submitted.callback = (...cbArgs: unknown[]) => {
      record(sql, started, caller);
      return answer(...cbArgs);
    };
    return originalQuery.apply(this, args);
  }
  const last = args[args.length - 1];
  if (typeof last === 'function') {
    args[args.length - 1] = (...cbArgs: unknown[]) => {
      record(sql, started, caller);
      return (last as QueryFn)(...cbArgs);
    };
    return originalQuery.apply(this, args);
  }
  const result = originalQuery.apply(this, args);
  if (result && typeof (result as Promise<unknown>).then === 'function') {
    (result as Promise<unknown>).then(
      () => record(sql, started, caller),
      () => record(sql, started, caller),
    );
  }
  return result;
};

/**
 * Diagnostic variants (BENCH_API_PATCH, comma-separated) that remove one cost of the
 * pipeline to measure its share: `no-rate-limit` skips the rate limiter. Never used for
 * the reported figures unless set explicitly.
 */
function applyDiagnosticPatches(patches: string[]): void {
  if (patches.includes('no-rate-limit')) {
    RateLimiter.prototype.consume = async (_id: string, limit: number) => ({
      allowed: true,
      limit,
      remaining: limit,
      resetSeconds: 60,
    });
  }
}

/**
 * The pipeline's floor (BENCH_FLOOR=1): two routes that do no work of their own, so their
 * throughput is what Nest + Express (public) and Nest + Express + the guard with passport
 * and the rate limiter (authenticated) cost before any query runs.
 */
@Controller('bench')
class BenchFloorController {
  @Get('public')
  @Public()
  open() {
    return { object: 'noop' };
  }

  @Get('authenticated')
  @RequireScopes('tags:read')
  authenticated() {
    return { object: 'noop' };
  }
}

@Module({ controllers: [BenchFloorController] })
class BenchFloorModule {}

async function main() {
  // As apps/api/main.ts does: the benchmark measures the process production runs.
  limitHeapGrowth();
  applyDiagnosticPatches((process.env.BENCH_API_PATCH ?? '').split(',').filter(Boolean));
  // BENCH_API_LOG=1: the request log on (level info) written to /dev/null, so its cost is in
  // the figures without a pipe to the benchmark process.
  const logging = process.env.BENCH_API_LOG === '1';
  const config = loadConfig(process.env, { LOG_LEVEL: logging ? 'info' : 'silent' });
  if (!config.DATABASE_URL) throw new Error('DATABASE_URL is required');
  const { app } = await createApiApp(config, {
    extraModules: process.env.BENCH_FLOOR === '1' ? [BenchFloorModule] : [],
    logDestination: logging ? pino.destination({ dest: '/dev/null', sync: false }) : undefined,
  });
  if (process.env.BENCH_FLOOR === '1') {
    // Extra modules' routes come after every product route, and Express tries route layers in
    // order; moving the floor routes ahead of them keeps the router's scan out of the figure.
    const router = (
      app.getHttpAdapter().getInstance() as { router: { stack: { route?: { path: string } }[] } }
    ).router;
    const floor = router.stack.filter((layer) => layer.route?.path.startsWith('/v1/bench/'));
    const others = router.stack.filter((layer) => !floor.includes(layer));
    others.splice(
      others.findIndex((layer) => layer.route),
      0,
      ...floor,
    );
    router.stack.splice(0, router.stack.length, ...others);
  }
  await app.listen(config.PORT, config.HOST);
  const address = app.getHttpServer().address() as { port: number };
  process.stdout.write(`${JSON.stringify({ port: address.port })}\n`);

  let profiler: Session | undefined;
  process.on('message', (message: unknown) => {
    const command = message as { type?: string; file?: string };
    if (command?.type === 'profile-start') {
      // A CPU profile of one measured window (BENCH_PROFILE_DIR), without start-up or warm-up.
      profiler = new Session();
      profiler.connect();
      profiler.post('Profiler.enable', () =>
        profiler!.post('Profiler.start', () => process.send?.({ type: 'profile-started' })),
      );
    } else if (command?.type === 'profile-stop' && profiler) {
      profiler.post('Profiler.stop', (error, result) => {
        if (!error) writeFileSync(command.file!, JSON.stringify(result.profile));
        profiler!.disconnect();
        profiler = undefined;
        process.send?.({ type: 'profile-stopped' });
      });
    } else if (message === 'trace-on') {
      stats.clear();
      batch = 0;
      tracing = true;
      process.send?.({ type: 'trace-on' });
    } else if (message === 'trace-off') {
      tracing = false;
      if (orderFile) writeFileSync(orderFile, `${order.join('\n')}\n`);
      process.send?.({
        type: 'trace',
        batches: batch,
        stats: [...stats.entries()].map(([sql, s]) => ({ sql, ...s })),
      });
    }
  });

  const stop = async () => {
    await app.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop());
  process.once('SIGINT', () => void stop());
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
