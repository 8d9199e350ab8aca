import { ChildProcess, fork } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { startEmbeddedPostgres } from '#platform/persistence/database';
import { reportChecks, SMOKE } from './smoke';

/** What the benchmarks share: child servers, scratch databases, and cleanup on any exit. */

const cleanups: (() => Promise<void>)[] = [];

/** Runs `step` when the benchmark ends (last registered, first run), whatever the outcome. */
export function onCleanup(step: () => Promise<unknown>): void {
  cleanups.push(async () => {
    await step();
  });
}

async function cleanup(): Promise<void> {
  while (cleanups.length) {
    const step = cleanups.pop()!;
    await step().catch((error: unknown) =>
      console.error('cleanup:', error instanceof Error ? error.message : error),
    );
  }
}

/**
 * Runs a benchmark's main, then the cleanups; SIGINT/SIGTERM clean up too. Exit code 0 unless
 * main throws or a correctness check (bench/smoke.ts) failed.
 */
export function runBench(main: () => Promise<void>): void {
  let exiting = false;
  const finish = (code: number) => {
    if (exiting) return;
    exiting = true;
    // The cleanups drop the database WITH (FORCE) and stop the embedded server: a connection a
    // library left idle in a pool without an error listener (BullMQ's PostgreSQL backend after
    // the dispatcher closed, seen in bench:webhooks) is then terminated (57P01) and its pool
    // throws. That is the run ending, not a failure; anything else still fails the run.
    process.on('uncaughtException', (error: Error & { code?: string }) => {
      if (error.code === '57P01') return;
      console.error(error);
      process.exit(1);
    });
    void cleanup().then(() => process.exit(code));
  };
  process.once('SIGINT', () => finish(130));
  process.once('SIGTERM', () => finish(143));
  main().then(
    () => finish(reportChecks() ? 0 : 1),
    (error: unknown) => {
      console.error(error);
      const message = error instanceof Error ? error.message : String(error);
      console.log(`\n${SMOKE ? 'smoke: ' : ''}stopped: ${message.split('\n')[0].slice(0, 300)}`);
      finish(1);
    },
  );
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

export interface Server {
  name: string;
  child: ChildProcess;
  baseUrl: string;
  stop(): Promise<void>;
}

/**
 * Forks a compiled entry of bench/ that prints `{"port":n}` once it listens; it is stopped at
 * cleanup. BENCH_API_EXEC_ARGV (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`) is passed to the API's node.
 */
export function startServer(
  name: string,
  script: string,
  env: NodeJS.ProcessEnv,
  /** Where the compiled bench/ entry is (another build of the API, for a side-by-side comparison). */
  dir = __dirname,
): Promise<Server> {
  // BENCH_BEFORE_EXEC_ARGV is the side-by-side API's (platform.bench's BENCH_BEFORE_DIR), e.g. to
  // compare V8 flags on one build.
  const flags = name === 'api-before' ? process.env.BENCH_BEFORE_EXEC_ARGV : process.env.BENCH_API_EXEC_ARGV;
  const execArgv = script === 'api-server.js' ? (flags ?? '').split(' ').filter(Boolean) : [];
  const child = fork(path.join(dir, script), [], {
    env,
    execArgv,
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  const stop = () => stopChild(child);
  onCleanup(stop);
  return new Promise((resolve, reject) => {
    let buffer = '';
    const timer = setTimeout(() => reject(new Error(`${name} did not start within 60 s`)), 60_000);
    child.once('exit', (code) => reject(new Error(`${name} exited with code ${code} before listening`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const line = buffer.split('\n').find((l) => l.startsWith('{"port"'));
      if (!line) return;
      clearTimeout(timer);
      const { port } = JSON.parse(line) as { port: number };
      resolve({ name, child, stop, baseUrl: `http://127.0.0.1:${port}` });
    });
  });
}

/** The environment of a benchmark's API child (bench/api-server.ts) on `databaseUrl`, plus `extra`. */
export function apiEnv(databaseUrl: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    NODE_ENV: 'production',
    DATABASE_URL: databaseUrl,
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PER_MINUTE: '10000000',
    QUEUE_PREFIX: `bench${process.pid}`,
    // The queues (and the rate limiter) on Redis when the run names one, as a deployment with
    // Redis runs; otherwise on PostgreSQL, BullMQ's PostgreSQL backend in the same database.
    ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
    // Production mode refuses to start without a secrets key; a fresh one per run does.
    SECRETS_KEY: `bench:${randomBytes(32).toString('base64')}`,
    ...(process.env.BENCH_TRACE_CALLERS ? { BENCH_TRACE_CALLERS: process.env.BENCH_TRACE_CALLERS } : {}),
    ...(process.env.BENCH_TRACE_ORDER ? { BENCH_TRACE_ORDER: process.env.BENCH_TRACE_ORDER } : {}),
    ...extra,
  };
}

/** Runs `fn` with a client of `url`, closed afterwards. */
export async function withClient<T>(url: string, fn: (c: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** The database server: DATABASE_URL's, or an embedded PostgreSQL started for the run and stopped at cleanup. */
export async function databaseServer(): Promise<{ adminUrl: string; embedded: boolean }> {
  if (process.env.DATABASE_URL) return { adminUrl: process.env.DATABASE_URL, embedded: false };
  const dir = mkdtempSync(path.join(os.tmpdir(), 'erp-bench-pg-'));
  // The embedded server runs as an unprivileged user when the bench runs as root.
  chmodSync(dir, 0o755);
  onCleanup(async () => rmSync(dir, { recursive: true, force: true }));
  const port = await freePort();
  const embedded = await startEmbeddedPostgres(path.join(dir, 'data'), port, 'postgres');
  onCleanup(() => embedded.stop());
  console.log(`embedded PostgreSQL on 127.0.0.1:${port}`);
  return { adminUrl: embedded.url, embedded: true };
}

/** A new database named `<prefix>_<pid>_<time>` on the server of `adminUrl`, dropped at cleanup; its URL. */
export async function scratchDatabase(adminUrl: string, prefix: string): Promise<string> {
  const name = `${prefix}_${process.pid}_${Date.now().toString(36)}`;
  await withClient(adminUrl, (c) => c.query(`CREATE DATABASE "${name}"`));
  onCleanup(() => withClient(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * A JSON caller over keep-alive HTTP/1.1 connections (node:http, one socket per concurrent
 * request, reused): the load generator shares the machine with the API and the database, so it
 * should cost as little CPU per request as it can (less than half of what `fetch` costs here).
 */
export function jsonCaller(baseUrl: string, key: string) {
  const { hostname, port } = new URL(baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  return (method: string, route: string, body?: unknown) =>
    new Promise<{ status: number; body: Record<string, unknown> }>((resolve, reject) => {
      const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
      const req = http.request(
        {
          host: hostname,
          port,
          method,
          path: route,
          agent,
          headers: {
            Authorization: `Bearer ${key}`,
            ...(payload ? { 'Content-Type': 'application/json', 'Content-Length': payload.length } : {}),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            try {
              const text = Buffer.concat(chunks).toString('utf8');
              resolve({
                status: res.statusCode ?? 0,
                body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
              });
            } catch (error) {
              reject(error as Error);
            }
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
}

/**
 * CPU time (user + system) a process has used so far, in ms, from /proc/<pid>/stat (its fields
 * 14 and 15, in clock ticks of 1/100 s); 0 once the process is gone.
 */
export function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}
