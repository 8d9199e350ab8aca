/**
 * Webhook delivery benchmark: 10,000 events to 1 endpoint, then 2,000 events to each of 5
 * endpoints, on a local receiver that answers 200 at once. The dispatcher runs in this process,
 * the receiver in a child process of its own (as a receiver is another machine in production, its
 * CPU is not the dispatcher's).
 * Each scenario runs twice, on fresh endpoints:
 * - burst: every event committed at once (transactions of 100); deliveries/s = deliveries
 *   divided by the time from the first commit to the last receipt (the drain rate).
 * - paced: events committed at a steady rate, one transaction every 20 ms, so that deliveries
 *   are due at BENCH_RATE per second (default: the target, 2,000 with Redis, 300 on PostgreSQL);
 *   p50/p99 then measure delivery latency rather than queueing behind a backlog.
 * Latency of a delivery = time of its first receipt at the receiver minus the time just before
 * the statement that committed its event was sent (so it includes the insert and commit).
 * Lost = expected (endpoint, event) pairs never received; duplicated = requests beyond the first
 * per pair, counted at the receiver.
 * CPU per delivery (ms, from the first commit to the last receipt): `dispatcher cpu` is this
 * process (the dispatcher, and the benchmark's commits), `receiver cpu` the receiver's process,
 * `pg cpu` the PostgreSQL backends serving the bench database (read from /proc, so the server must
 * run on this machine), `redis cpu` the whole Redis server (its INFO).
 *
 *   npm run bench:webhooks                       (BullMQ on PostgreSQL; embedded server without DATABASE_URL)
 *   REDIS_URL=redis://127.0.0.1:6379 npm run bench:webhooks
 * A warm-up burst of 2,000 deliveries runs first and is not counted (BENCH_WARMUP=0 skips it).
 * Settings: BENCH_DISPATCHERS (replicas in this process, default 1), BENCH_RATE, BENCH_MODES (burst,paced),
 * BENCH_KEEP_DB (keep the scratch database to inspect the rows' timestamps), WEBHOOK_DELIVERY_CONCURRENCY.
 * Check (exit code 1 when it fails): no delivery lost or duplicated in any run, warm-up included.
 * Smoke mode (bench/smoke.ts): 300 events to 1 endpoint and 60 to 5, after a warm-up of 200; the
 * same check, with a minute (not ten) for the last delivery.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import { AddressInfo } from 'node:net';
import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import { Redis } from 'ioredis';
import { Pool } from 'pg';
import { v7 as uuidv7 } from 'uuid';
import { DispatcherModule } from '../apps/webhook-dispatcher/dispatcher.module';
import { loadConfig } from '#platform/config/app-config';
import { SecretBox } from '#platform/crypto/secret-box';
import { SIGNING_SECRET_PURPOSE } from '#contexts/webhooks';
import { API_VERSION } from '#platform/events/event-publisher';
import { ensureDatabase, migrate } from '#platform/persistence/database';
import { check, SMOKE } from './smoke';
import { cpuMs, databaseServer, onCleanup, runBench } from './support';

const withDatabase = (url: string, name: string) => {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
};

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** What the receiver process answers the benchmark. */
type ReceiverReply =
  | { type: 'port'; port: number }
  | { type: 'count'; received: number; requests: number }
  | { type: 'receipts'; receipts: [string, number][]; requests: number };

/**
 * The receiver (child process): answers 200 at once, keeps the first receipt time per (endpoint,
 * event) and counts every request; reports them when the benchmark asks.
 */
function receiverProcess() {
  const receipts = new Map<string, number>();
  let requests = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      requests++;
      const key = `${String(req.headers['service-webhook-id'])}:${String(req.headers['service-event-id'])}`;
      if (!receipts.has(key)) receipts.set(key, Date.now());
      res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok');
    });
  });
  server.keepAliveTimeout = 30_000;
  const reply = (message: ReceiverReply) => process.send!(message);
  process.on('message', (message: { type: 'clear' | 'count' | 'receipts' | 'stop' }) => {
    if (message.type === 'clear') {
      receipts.clear();
      requests = 0;
      reply({ type: 'count', received: 0, requests: 0 });
    } else if (message.type === 'count') reply({ type: 'count', received: receipts.size, requests });
    else if (message.type === 'receipts') reply({ type: 'receipts', receipts: [...receipts], requests });
    else {
      server.closeAllConnections();
      server.close();
      process.disconnect();
    }
  });
  server.listen(0, '127.0.0.1', () => reply({ type: 'port', port: (server.address() as AddressInfo).port }));
}

/** Sends `type` to the receiver process and waits for its reply of type `expect`. */
function ask<T extends ReceiverReply['type']>(
  child: ChildProcess,
  type: 'clear' | 'count' | 'receipts' | null,
  expect: T,
): Promise<Extract<ReceiverReply, { type: T }>> {
  return new Promise((resolve) => {
    const onMessage = (message: ReceiverReply) => {
      if (message.type !== expect) return;
      child.off('message', onMessage);
      resolve(message as Extract<ReceiverReply, { type: T }>);
    };
    child.on('message', onMessage);
    if (type) child.send({ type });
  });
}

interface Scenario {
  name: string;
  events: number;
  endpoints: number;
}

async function main() {
  // DATABASE_URL's server, or an embedded server of the run's own.
  const server = { url: (await databaseServer()).adminUrl };
  const dbName = `erp_bench_${process.pid}`;
  await ensureDatabase(withDatabase(server.url, 'postgres'), dbName);
  // The benchmark's scratch database goes with it at cleanup (the machine's server is shared).
  if (!process.env.BENCH_KEEP_DB)
    onCleanup(async () => {
      const admin = new Pool({ connectionString: withDatabase(server.url, 'postgres'), max: 1 });
      await admin
        .query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`)
        .catch((error: unknown) => console.warn(`could not drop ${dbName}: ${String(error)}`));
      await admin.end();
    });
  const url = withDatabase(server.url, dbName);
  await migrate(url);
  const pool = new Pool({ connectionString: url, max: 4 });
  // Receiver (a child process): first receipt time per (endpoint, event), and a count of every request.
  const receiverChild = fork(__filename, ['--receiver'], { execArgv: [] });
  // A run that fails (process.exit) takes its receiver with it.
  process.on('exit', () => receiverChild.kill());
  const { port } = await ask(receiverChild, null, 'port');
  const receiverUrl = `http://127.0.0.1:${port}/hook`;
  const redisStats = process.env.REDIS_URL
    ? new Redis(process.env.REDIS_URL, { maxRetriesPerRequest: 1 })
    : undefined;

  /**
   * CPU so far, in ms: this process (the dispatcher and the commits), the receiver's process,
   * the PostgreSQL backends serving the bench database (from /proc, so the server must run on
   * this machine) and the Redis server (its INFO, the whole server).
   */
  const cpuSample = async () => {
    const { rows } = await pool.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
    );
    let redis = 0;
    if (redisStats) {
      const info = await redisStats.info('cpu');
      for (const key of ['used_cpu_user', 'used_cpu_sys'])
        redis += 1000 * Number(new RegExp(`${key}:([\\d.]+)`).exec(info)?.[1] ?? 0);
    }
    const own = process.cpuUsage();
    return {
      dispatcher: (own.user + own.system) / 1000,
      receiver: cpuMs(receiverChild.pid!),
      db: new Map(rows.map((r) => [r.pid, cpuMs(r.pid)])),
      redis,
    };
  };

  const config = loadConfig(process.env, {
    DATABASE_URL: url,
    QUEUE_PREFIX: `bench${randomBytes(3).toString('hex')}`,
    LOG_LEVEL: 'silent',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: true,
    WEBHOOK_OUTBOX_POLL_MS: 100,
  });
  const replicas = Number(process.env.BENCH_DISPATCHERS ?? 1);
  const dispatchers: INestApplicationContext[] = [];
  for (let i = 0; i < replicas; i++)
    dispatchers.push(
      await NestFactory.createApplicationContext(DispatcherModule.forRoot(config), { logger: false }),
    );

  const backend = config.REDIS_URL ? 'Redis' : 'PostgreSQL';
  // Targets: burst >= 5,000/s and p99 < 100 ms paced at 2,000/s with Redis; 300/s and p99 < 1 s on PostgreSQL.
  const target = config.REDIS_URL
    ? { burst: 5000, paced: 2000, p99: 100 }
    : { burst: 300, paced: 300, p99: 1000 };
  const pacedRate = Number(process.env.BENCH_RATE ?? target.paced);
  const modes = (process.env.BENCH_MODES ?? 'burst,paced')
    .split(',')
    .filter((m): m is 'burst' | 'paced' => m === 'burst' || m === 'paced');
  console.log(
    `webhooks benchmark: BullMQ on ${backend}, ${replicas} dispatcher(s), concurrency ${config.WEBHOOK_DELIVERY_CONCURRENCY}, paced rate ${pacedRate} deliveries/s`,
  );

  /** Commits `count` events (ids) in one transaction; returns the time just before the statement was sent. */
  const commitEvents = async (
    entityId: string,
    first: number,
    count: number,
  ): Promise<{ ids: string[]; at: number }> => {
    const ids = Array.from({ length: count }, () => uuidv7());
    const data = ids.map((id, i) =>
      JSON.stringify({ object: { id, object: 'order', number: first + i, status: 'confirmed' } }),
    );
    const at = Date.now();
    await pool.query(
      `INSERT INTO outbox_events (id, entity_id, livemode, type, api_version, data, created_at)
       SELECT id, $2, true, 'order.confirmed', $3, data::jsonb, now() FROM unnest($1::uuid[], $4::text[]) AS t(id, data)`,
      [ids, entityId, API_VERSION, data],
    );
    return { ids, at };
  };

  const run = async (scenario: Scenario, mode: 'burst' | 'paced') => {
    await ask(receiverChild, 'clear', 'count');
    const entityId = randomUUID();
    await pool.query(`INSERT INTO entities (id, code, name) VALUES ($1, $2, 'bench')`, [
      entityId,
      `b${randomBytes(4).toString('hex')}`,
    ]);
    for (let i = 0; i < scenario.endpoints; i++) {
      await pool.query(
        `INSERT INTO webhook_endpoints (id, entity_id, livemode, url, enabled_events, secret) VALUES ($1, $2, true, $3, '{*}', $4)`,
        [
          uuidv7(),
          entityId,
          `${receiverUrl}?e=${i}`,
          new SecretBox(config.secretsKey).seal(
            `whsec_${randomBytes(32).toString('hex')}`,
            SIGNING_SECRET_PURPOSE,
          ),
        ],
      );
    }
    const committedAt = new Map<string, number>();
    const cpuBefore = await cpuSample();
    const started = Date.now();
    if (mode === 'burst') {
      // Every event at once, in transactions of 100: measures how fast the backlog drains.
      for (let offset = 0; offset < scenario.events; offset += 100) {
        const { ids, at } = await commitEvents(entityId, offset, Math.min(100, scenario.events - offset));
        for (const id of ids) committedAt.set(id, at);
      }
    } else {
      // Events at a steady rate (deliveries/s divided by the endpoints), one transaction every 20 ms.
      const eventsPerMs = pacedRate / scenario.endpoints / 1000;
      let committed = 0;
      while (committed < scenario.events) {
        const due = Math.min(scenario.events, Math.floor((Date.now() - started) * eventsPerMs) + 1);
        if (due > committed) {
          const { ids, at } = await commitEvents(entityId, committed, due - committed);
          for (const id of ids) committedAt.set(id, at);
          committed = due;
        }
        await new Promise((r) => setTimeout(r, 20));
      }
    }
    const expected = scenario.events * scenario.endpoints;
    const deadline = Date.now() + (SMOKE ? 60_000 : 10 * 60_000);
    let received = 0;
    while (received < expected && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
      received = (await ask(receiverChild, 'count', 'count')).received;
    }
    const cpuAfter = await cpuSample();
    await new Promise((r) => setTimeout(r, 1000)); // late duplicates would show here
    const answer = await ask(receiverChild, 'receipts', 'receipts');
    const receipts = new Map(answer.receipts);
    const requests = answer.requests;
    const finished = Math.max(...receipts.values());
    const latencies = [...receipts.entries()]
      .map(([key, at]) => at - committedAt.get(key.split(':')[1])!)
      .sort((a, b) => a - b);
    const seconds = (finished - started) / 1000;
    let dbCpu = 0;
    for (const [pid, ms] of cpuAfter.db) dbCpu += ms - (cpuBefore.db.get(pid) ?? 0);
    const perDelivery = (ms: number) => Number((ms / Math.max(1, receipts.size)).toFixed(3));
    const row = {
      scenario: scenario.name,
      mode: mode === 'burst' ? 'burst' : `paced ${pacedRate}/s`,
      deliveries: receipts.size,
      seconds: Number(seconds.toFixed(2)),
      'deliveries/s': Math.round(receipts.size / seconds),
      'p50 ms': percentile(latencies, 50),
      'p99 ms': percentile(latencies, 99),
      lost: expected - receipts.size,
      duplicated: requests - receipts.size,
      // CPU ms per delivery, from the first commit to the last receipt.
      'dispatcher cpu': perDelivery(cpuAfter.dispatcher - cpuBefore.dispatcher),
      'receiver cpu': perDelivery(cpuAfter.receiver - cpuBefore.receiver),
      'pg cpu': perDelivery(dbCpu),
      'redis cpu': perDelivery(cpuAfter.redis - cpuBefore.redis),
    };
    console.log(JSON.stringify(row));
    check(
      row.lost === 0 && row.duplicated === 0,
      `${scenario.name} (${row.mode}): ${row.lost} lost, ${row.duplicated} duplicated`,
    );
    return row;
  };

  // Warm-up, not reported (BENCH_WARMUP=0 skips it): a dispatcher that has been running has its
  // code compiled and its connections to the receiver open; the first scenario would pay for both.
  if (process.env.BENCH_WARMUP !== '0') {
    const row = await run({ name: 'warm-up', events: SMOKE ? 200 : 2_000, endpoints: 1 }, 'burst');
    if (row.lost > 0) throw new Error(`warm-up lost ${row.lost} deliveries`);
  }
  const results: Awaited<ReturnType<typeof run>>[] = [];
  for (const scenario of [
    { name: `${SMOKE ? 300 : '10,000'} events -> 1 endpoint`, events: SMOKE ? 300 : 10_000, endpoints: 1 },
    { name: `${SMOKE ? 60 : '2,000'} events -> 5 endpoints`, events: SMOKE ? 60 : 2_000, endpoints: 5 },
  ] satisfies Scenario[]) {
    for (const mode of modes) results.push(await run(scenario, mode));
  }
  console.table(results);
  const verdict = (rows: typeof results, ok: (r: (typeof results)[number]) => boolean) =>
    rows.length === 0 ? 'not run' : rows.every(ok) ? 'met' : 'NOT met';
  const burst = verdict(
    results.filter((r) => r.mode === 'burst'),
    (r) => r['deliveries/s'] >= target.burst,
  );
  const paced = verdict(
    results.filter((r) => r.mode !== 'burst'),
    (r) => r['p99 ms'] < target.p99,
  );
  const exact = verdict(results, (r) => r.lost === 0 && r.duplicated === 0);
  console.log(
    SMOKE
      ? `smoke mode: speed not judged; zero lost/duplicated ${exact}`
      : `target: burst >= ${target.burst} deliveries/s ${burst}; p99 < ${target.p99} ms at ${pacedRate}/s ${paced}; zero lost/duplicated ${exact}`,
  );

  await Promise.all(dispatchers.map((d) => d.close()));
  receiverChild.send({ type: 'stop' });
  await pool.end();
  await redisStats?.quit();
  if (config.REDIS_URL) {
    // The run's queue keys (its own random prefix) go too.
    const redis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: 1 });
    const stream = redis.scanStream({ match: `${config.QUEUE_PREFIX}:*`, count: 500 });
    for await (const keys of stream as AsyncIterable<string[]>)
      if (keys.length > 0) await redis.unlink(...keys);
    await redis.quit();
  }
  if (process.env.BENCH_KEEP_DB) console.log(`database kept: ${dbName}`);
}

if (process.argv.includes('--receiver')) receiverProcess();
else runBench(main);
