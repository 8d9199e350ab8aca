import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { runSeed } from '../scripts/seed-runner';
import { loadConfig } from '#platform/config/app-config';
import { migrate } from '#platform/persistence/database';
import { check, setting, SMOKE, target } from './smoke';
import { apiEnv, cpuMs, databaseServer, runBench, scratchDatabase, Server, startServer } from './support';

/**
 * `npm run bench:platform`: the request pipeline's overhead on two read routes.
 *
 * Builds a fresh database (on DATABASE_URL's server, or an embedded PostgreSQL), seeds the
 * QA entity and ~200 tags, then loads the real API (child process) and a bare `http` + `pg`
 * baseline running the same tag query (child process) with autocannon, and prints
 * requests/s, p50/p99 latency, the API/baseline ratio, the API's RSS and a per-request SQL
 * profile. Targets are reported as PASS/FAIL; the exit code is 0 either way.
 * Unless BENCH_FLOOR=0 it also loads the two tag routes on a minimal Nest + Express application
 * running the baseline's SQL (framework-floor-server), the ceiling of any API on that framework
 * and the reference of the targets, side by side with the API and the baseline; and two API
 * routes that run no query (one @Public(), one behind the guard), to show what the framework and
 * the guard cost on their own.
 *
 * Before the runs, the API's answers on both routes must be the baseline's (and the minimal
 * application's) byte for byte; every answer under load must be a 2xx. Smoke mode
 * (bench/smoke.ts): 40 tags, 10 connections, runs of 1 s without warm-up, the same checks.
 */

const DURATION_S = setting('BENCH_DURATION_S', 10, 1);
const WARMUP_S = setting('BENCH_WARMUP_S', 2, 0);
const CONNECTIONS = setting('BENCH_CONNECTIONS', 50, 10);
const TAG_COUNT = SMOKE ? 40 : 200;
const PROFILE_REQUESTS = SMOKE ? 10 : 200;
/**
 * The targets: the API at >= 80 % of the minimal Nest + Express application's requests/s on both tag
 * routes (measured side by side: API, minimal app, baseline, one route after the other), p99 under
 * 50 ms, and a peak RSS (VmHWM) under 300 MB through the whole benchmark. The share of the bare
 * `http` + `pg` baseline is printed for reference.
 */
const TARGETS = { minFloorRatio: 0.8, maxP99Ms: 50, maxRssMb: 300 };
/**
 * BENCH_ROUNDS: measured runs per server and route (default 1), in alternating order; the
 * figures are each server's medians (requests/s, CPU per request, latencies, separately).
 */
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 1));

/** BENCH_FLOOR=0 leaves out the minimal application and the no-query routes (and their verdicts). */
const WITH_FLOOR = process.env.BENCH_FLOOR !== '0';

interface RouteResult {
  route: string;
  server: string;
  rps: number;
  /** The server process's CPU time (user + system) per request during the run, in ms. */
  cpuMs: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

function memoryOf(pid: number): { rssMb: number; hwmMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rssMb: kb('VmRSS') / 1024, hwmMb: kb('VmHWM') / 1024 };
}

async function request(url: string, key: string, init: RequestInit = {}): Promise<unknown> {
  const res = await fetch(url, {
    ...init,
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', ...init.headers },
  });
  const body = await res.json();
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${url}: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

async function createTags(api: Server, key: string): Promise<string[]> {
  const ids: string[] = [];
  const colors = ['#1f6feb', '#d73a49', '#28a745', null];
  for (let start = 0; start < TAG_COUNT; start += 10) {
    const batch = Array.from({ length: Math.min(10, TAG_COUNT - start) }, (_, i) =>
      request(`${api.baseUrl}/v1/tags`, key, {
        method: 'POST',
        body: JSON.stringify({
          name: `Bench tag ${start + i + 1}`,
          color: colors[(start + i) % colors.length],
        }),
      }),
    );
    for (const tag of (await Promise.all(batch)) as { id: string }[]) ids.push(tag.id);
  }
  return ids;
}

const PROFILE_DIR = process.env.BENCH_PROFILE_DIR;

/** Sends `message` to the API child and waits for the reply of type `reply`. */
function command(api: Server, message: object, reply: string): Promise<void> {
  return new Promise((resolve) => {
    const onMessage = (m: unknown) => {
      if ((m as { type?: string })?.type !== reply) return;
      api.child.off('message', onMessage);
      resolve();
    };
    api.child.on('message', onMessage);
    api.child.send(message);
  });
}

/**
 * A measured run; with BENCH_PROFILE_DIR the API child records a CPU profile of exactly this run
 * (`<dir>/<label>.cpuprofile`, read with `node dist/bench/cpu-profile-report.js`).
 */
async function measure(server: Server, route: string, key: string, label: string): Promise<RouteResult> {
  if (!PROFILE_DIR || server.name !== 'api') return load(server, route, key, DURATION_S);
  mkdirSync(PROFILE_DIR, { recursive: true });
  await command(server, { type: 'profile-start' }, 'profile-started');
  const result = await load(server, route, key, DURATION_S);
  await command(
    server,
    { type: 'profile-stop', file: path.join(PROFILE_DIR, `${label}.cpuprofile`) },
    'profile-stopped',
  );
  return result;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** One result of several rounds: the median of each figure. */
function medianOf(runs: RouteResult[]): RouteResult {
  if (runs.length === 1) return runs[0];
  return {
    ...runs[0],
    rps: median(runs.map((r) => r.rps)),
    cpuMs: median(runs.map((r) => r.cpuMs)),
    p50: median(runs.map((r) => r.p50)),
    p99: median(runs.map((r) => r.p99)),
    non2xx: runs.reduce((sum, r) => sum + r.non2xx, 0),
    errors: runs.reduce((sum, r) => sum + r.errors, 0),
  };
}

async function load(server: Server, route: string, key: string, duration: number): Promise<RouteResult> {
  const cpuBefore = cpuMs(server.child.pid!);
  const result = await autocannon({
    url: `${server.baseUrl}${route}`,
    headers: { Authorization: `Bearer ${key}` },
    connections: CONNECTIONS,
    duration,
  });
  return {
    route,
    server: server.name,
    rps: result.requests.average,
    cpuMs: (cpuMs(server.child.pid!) - cpuBefore) / Math.max(1, result.requests.total),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

/** Sequential requests with SQL tracing on: round trips and DB time per request. */
async function profile(api: Server, baseline: Server, route: string, key: string) {
  const timed = async (server: Server) => {
    const started = performance.now();
    for (let i = 0; i < PROFILE_REQUESTS; i++) await request(`${server.baseUrl}${route}`, key);
    return (performance.now() - started) / PROFILE_REQUESTS;
  };
  const baselineMs = await timed(baseline);
  const ask = (message: string) =>
    new Promise<{ stats?: { sql: string; count: number; totalMs: number }[] }>((resolve) => {
      api.child.once('message', (reply) =>
        resolve(reply as { stats?: { sql: string; count: number; totalMs: number }[] }),
      );
      api.child.send(message);
    });
  await ask('trace-on');
  const apiMs = await timed(api);
  const { stats = [] } = await ask('trace-off');
  return { route, apiMs, baselineMs, stats };
}

const pad = (value: string, width: number) => value.padStart(width);
const fmt = (n: number, digits = 0) => n.toFixed(digits);

async function main() {
  const url = await scratchDatabase((await databaseServer()).adminUrl, 'bench');
  console.log(`database ${new URL(url).pathname.slice(1)} on ${new URL(url).host}`);
  await migrate(url);
  const seed = await runSeed(loadConfig({}, { DATABASE_URL: url, LOG_LEVEL: 'silent' }));
  const key = seed.entities.primary.keys.live;

  const api = await startServer(
    'api',
    'api-server.js',
    apiEnv(url, {
      BENCH_API_PATCH: process.env.BENCH_API_PATCH ?? '',
      BENCH_FLOOR: WITH_FLOOR ? '1' : '',
      BENCH_API_LOG: process.env.BENCH_API_LOG ?? '',
    }),
  );
  if (process.env.BENCH_API_PATCH) console.log(`diagnostic API variant: ${process.env.BENCH_API_PATCH}`);
  const ids = await createTags(api, key);
  const baseline = await startServer(
    'baseline',
    'baseline-server.js',
    apiEnv(url, { ENTITY_ID: seed.entities.primary.id, LIVEMODE: 'true' }),
  );
  console.log(
    `api ${api.baseUrl} (pid ${api.child.pid}), baseline ${baseline.baseUrl} (pid ${baseline.child.pid}), ${ids.length} tags`,
  );

  const routes = [`/v1/tags/${ids[Math.floor(ids.length / 2)]}`, '/v1/tags?limit=20'];

  // The minimal Nest + Express application (framework-floor-server): the tag routes on the least an
  // application on that framework can be, the ceiling of any API built on it.
  const minimal = WITH_FLOOR
    ? await startServer(
        'nest-min',
        'framework-floor-server.js',
        apiEnv(url, { ENTITY_ID: seed.entities.primary.id, LIVEMODE: 'true' }),
      )
    : undefined;
  // The servers compared with the API must answer what it answers, byte for byte.
  for (const route of routes) {
    const [a, ...others] = await Promise.all(
      [api, baseline, ...(minimal ? [minimal] : [])].map(async (server) => {
        const res = await fetch(`${server.baseUrl}${route}`, { headers: { Authorization: `Bearer ${key}` } });
        return { server, status: res.status, text: await res.text() };
      }),
    );
    for (const other of others) {
      const same = a.status === 200 && other.status === 200 && a.text === other.text;
      if (check(same, `${other.server.name} answers GET ${route} as the API does`) === 'FAIL')
        console.log(
          `FAIL  GET ${route}: the API answered ${a.status} ${a.text.slice(0, 300)}; ${other.server.name} ${other.status} ${other.text.slice(0, 300)}`,
        );
    }
  }
  console.log(
    `the baseline${minimal ? ' and the minimal application' : ''} answer both routes with the API's JSON`,
  );
  // BENCH_BEFORE_DIR: the compiled bench/ directory of another build of the API (e.g. the main
  // branch's dist/bench), loaded side by side with this one on the same database.
  const before = process.env.BENCH_BEFORE_DIR
    ? await startServer('api-before', 'api-server.js', apiEnv(url), process.env.BENCH_BEFORE_DIR)
    : undefined;
  const results: RouteResult[] = [];
  const nestFloor: RouteResult[] = [];
  const previous: RouteResult[] = [];
  for (const route of routes) {
    const servers = [api, ...(before ? [before] : []), ...(minimal ? [minimal] : []), baseline];
    const rounds = new Map<Server, RouteResult[]>(servers.map((server) => [server, []]));
    for (let round = 0; round < ROUNDS; round++) {
      // Every other round in the reverse order, so no server is always first after a pause.
      for (const server of round % 2 === 0 ? servers : [...servers].reverse()) {
        if (WARMUP_S > 0) await load(server, route, key, WARMUP_S);
        const result = await measure(server, route, key, route.startsWith('/v1/tags/') ? 'retrieve' : 'list');
        rounds.get(server)!.push(result);
        console.log(`  ${server.name.padEnd(8)} GET ${route}: ${fmt(result.rps)} req/s`);
      }
    }
    for (const server of servers) {
      const result = medianOf(rounds.get(server)!);
      (server === minimal ? nestFloor : server === before ? previous : results).push(result);
    }
  }
  await minimal?.stop();
  const beforeMemory = before ? memoryOf(before.child.pid!) : undefined;
  await before?.stop();
  // The framework's own cost in the API: routes that run no query, public and behind the guard.
  const floor: RouteResult[] = [];
  if (WITH_FLOOR) {
    for (const route of ['/v1/bench/public', '/v1/bench/authenticated']) {
      if (WARMUP_S > 0) await load(api, route, key, WARMUP_S);
      const result = await measure(api, route, key, route.slice('/v1/bench/'.length));
      floor.push(result);
      console.log(`  api      GET ${route}: ${fmt(result.rps)} req/s`);
    }
  }
  const profiles = [];
  for (const route of routes) profiles.push(await profile(api, baseline, route, key));
  const apiMemory = memoryOf(api.child.pid!);
  const baselineMemory = memoryOf(baseline.child.pid!);

  console.log(
    `\nautocannon: ${CONNECTIONS} connections, ${DURATION_S} s per run (after ${WARMUP_S} s warm-up), Node ${process.version}, ${os.cpus().length} CPUs`,
  );
  console.log(
    `${'route'.padEnd(22)}${pad('API req/s', 11)}${pad('base req/s', 12)}${pad('ratio', 7)}${pad('API p50', 9)}${pad('API p99', 9)}${pad('base p50', 10)}${pad('base p99', 10)}${pad('non-2xx', 9)}`,
  );
  const verdicts: string[] = [];
  const pass = target;
  // Every answer under load a 2xx, from every server.
  const refused = [...results, ...nestFloor, ...previous, ...floor].filter((r) => r.non2xx + r.errors > 0);
  verdicts.push(
    `${check(refused.length === 0, 'every answer under load a 2xx')}  every answer under load a 2xx${refused
      .map((r) => `; ${r.server} GET ${r.route}: ${r.non2xx} non-2xx and ${r.errors} errors`)
      .join('')}`,
  );
  for (const route of routes) {
    const a = results.find((r) => r.route === route && r.server === 'api')!;
    const b = results.find((r) => r.route === route && r.server === 'baseline')!;
    const ratio = a.rps / b.rps;
    const label = route.startsWith('/v1/tags/') ? 'GET /v1/tags/{id}' : `GET ${route}`;
    console.log(
      `${label.padEnd(22)}${pad(fmt(a.rps), 11)}${pad(fmt(b.rps), 12)}${pad(fmt(ratio, 2), 7)}${pad(`${a.p50} ms`, 9)}${pad(`${a.p99} ms`, 9)}${pad(`${b.p50} ms`, 10)}${pad(`${b.p99} ms`, 10)}${pad(`${a.non2xx + a.errors}/${b.non2xx + b.errors}`, 9)}`,
    );
    const m = nestFloor.find((r) => r.route === route);
    if (m) {
      verdicts.push(
        `${pass(a.rps / m.rps >= TARGETS.minFloorRatio)}  ${label}: API ${fmt((a.rps / m.rps) * 100)}% of the minimal Nest + Express app's req/s (target >= ${TARGETS.minFloorRatio * 100}%); ${fmt(ratio * 100)}% of bare http + pg`,
      );
    }
    verdicts.push(
      `${pass(a.p99 < TARGETS.maxP99Ms)}  ${label}: API p99 ${a.p99} ms (target < ${TARGETS.maxP99Ms} ms)`,
    );
  }
  for (const f of nestFloor) {
    const b = results.find((r) => r.route === f.route && r.server === 'baseline')!;
    const label = f.route.startsWith('/v1/tags/') ? 'GET /v1/tags/{id}' : `GET ${f.route}`;
    console.log(
      `${label.padEnd(22)}${pad(fmt(f.rps), 11)}${pad(fmt(b.rps), 12)}${pad(fmt(f.rps / b.rps, 2), 7)}${pad(`${f.p50} ms`, 9)}${pad(`${f.p99} ms`, 9)}${pad(`${b.p50} ms`, 10)}${pad(`${b.p99} ms`, 10)}${pad(`${f.non2xx + f.errors}/-`, 9)}  (minimal Nest + Express app, same SQL)`,
    );
  }
  for (const f of floor) {
    console.log(
      `${`GET ${f.route}`.padEnd(22)}${pad(fmt(f.rps), 11)}${pad('-', 12)}${pad('-', 7)}${pad(`${f.p50} ms`, 9)}${pad(`${f.p99} ms`, 9)}${pad('-', 10)}${pad('-', 10)}${pad(`${f.non2xx + f.errors}/-`, 9)}  (floor: no query)`,
    );
  }
  console.log(
    '\nCPU time of each server process per request (user + system, from /proc; less sensitive to a busy machine than req/s):',
  );
  for (const route of routes) {
    const label = route.startsWith('/v1/tags/') ? 'GET /v1/tags/{id}' : `GET ${route}`;
    const a = results.find((r) => r.route === route && r.server === 'api')!;
    const b = results.find((r) => r.route === route && r.server === 'baseline')!;
    const m = nestFloor.find((r) => r.route === route);
    console.log(
      `  ${label.padEnd(22)} API ${fmt(a.cpuMs, 3)} ms${m ? `, minimal app ${fmt(m.cpuMs, 3)} ms (API/minimal ${fmt(a.cpuMs / m.cpuMs, 2)})` : ''}, baseline ${fmt(b.cpuMs, 3)} ms`,
    );
  }
  for (const f of floor) console.log(`  ${`GET ${f.route}`.padEnd(22)} API ${fmt(f.cpuMs, 3)} ms`);
  for (const p of previous) {
    const a = results.find((r) => r.route === p.route && r.server === 'api')!;
    const m = nestFloor.find((r) => r.route === p.route);
    const label = p.route.startsWith('/v1/tags/') ? 'GET /v1/tags/{id}' : `GET ${p.route}`;
    console.log(
      `  ${label.padEnd(22)} before (${process.env.BENCH_BEFORE_DIR}): ${fmt(p.rps)} req/s, p99 ${p.p99} ms, ${fmt(p.cpuMs, 3)} ms CPU per request${m ? `, ${fmt((p.rps / m.rps) * 100)}% of the minimal app` : ''}; this build ${fmt(a.rps)} req/s, ${fmt(a.cpuMs, 3)} ms CPU per request`,
    );
  }
  if (beforeMemory) console.log(`  before: peak RSS (VmHWM) ${fmt(beforeMemory.hwmMb)} MB`);
  console.log(
    `\nAPI process memory after the runs: RSS ${fmt(apiMemory.rssMb)} MB, peak (VmHWM) ${fmt(apiMemory.hwmMb)} MB; baseline RSS ${fmt(baselineMemory.rssMb)} MB`,
  );
  verdicts.push(
    `${pass(apiMemory.hwmMb < TARGETS.maxRssMb)}  API peak RSS (VmHWM) ${fmt(apiMemory.hwmMb)} MB through the benchmark, ${fmt(apiMemory.rssMb)} MB at the end (target < ${TARGETS.maxRssMb} MB)`,
  );

  console.log(
    `\nSequential profile (${PROFILE_REQUESTS} requests, one connection): SQL statements the API runs per request`,
  );
  for (const p of profiles) {
    const label = p.route.startsWith('/v1/tags/') ? 'GET /v1/tags/{id}' : `GET ${p.route}`;
    const perRequest = p.stats.reduce((sum, s) => sum + s.count, 0) / PROFILE_REQUESTS;
    const dbMs = p.stats.reduce((sum, s) => sum + s.totalMs, 0) / PROFILE_REQUESTS;
    console.log(
      `${label}: API ${fmt(p.apiMs, 2)} ms/request (baseline ${fmt(p.baselineMs, 2)} ms), ${fmt(perRequest, 1)} statements and ${fmt(dbMs, 2)} ms waiting on PostgreSQL per request`,
    );
    for (const s of [...p.stats].sort((x, y) => y.count - x.count)) {
      console.log(
        `  ${fmt(s.count / PROFILE_REQUESTS, 2)}x ${fmt(s.totalMs / s.count, 3)} ms  ${s.sql.length > 150 ? `${s.sql.slice(0, 147)}...` : s.sql}`,
      );
    }
  }

  console.log(`\nTargets${SMOKE ? ' (smoke mode: speed not judged)' : ''}`);
  for (const line of verdicts) console.log(`  ${line}`);
}

runBench(main);
