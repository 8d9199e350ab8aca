/**
 * Webhook delivery benchmark: 10,000 events to 1 endpoint, then 2,000 events to each of 5
 * endpoints, on a local receiver that answers 200 at once. Events are committed to the outbox
 * in transactions of 100 (as the API's publisher does); the dispatcher runs in this process.
 * Prints deliveries/s, p50/p99 from commit to receipt, and lost/duplicated deliveries.
 *
 *   npm run bench:webhooks                       (BullMQ on PostgreSQL; embedded server without DATABASE_URL)
 *   REDIS_URL=redis://127.0.0.1:6379 npm run bench:webhooks
 * Settings: BENCH_DISPATCHERS (replicas in this process, default 1), WEBHOOK_DELIVERY_CONCURRENCY.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import { AddressInfo } from 'node:net';
import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import { Pool } from 'pg';
import { v7 as uuidv7 } from 'uuid';
import { DispatcherModule } from '../apps/webhook-dispatcher/dispatcher.module';
import { loadConfig } from '../libs/platform/config/app-config';
import { API_VERSION } from '../libs/platform/events/event-publisher';
import { ensureDatabase, migrate, resolveDatabaseUrl } from '../libs/platform/persistence/database';

const withDatabase = (url: string, name: string) => {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
};

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

interface Scenario {
  name: string;
  events: number;
  endpoints: number;
}

async function main() {
  const base = loadConfig();
  const server = await resolveDatabaseUrl(base);
  const dbName = `erp_bench_${process.pid}`;
  await ensureDatabase(withDatabase(server.url, 'postgres'), dbName);
  const url = withDatabase(server.url, dbName);
  await migrate(url);
  const pool = new Pool({ connectionString: url, max: 4 });

  // Receiver: first receipt time per (endpoint, event), and a count of every request.
  const receipts = new Map<string, number>();
  let requests = 0;
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      requests++;
      const key = `${String(req.headers['service-webhook-id'])}:${String(req.headers['service-event-id'])}`;
      if (!receipts.has(key)) receipts.set(key, Date.now());
      res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok');
    });
  });
  receiver.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

  const config = loadConfig(process.env, {
    DATABASE_URL: url,
    QUEUE_PREFIX: `bench${randomBytes(3).toString('hex')}`,
    LOG_LEVEL: 'silent',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: true,
    WEBHOOK_OUTBOX_POLL_MS: 100,
  });
  const replicas = Number(process.env.BENCH_DISPATCHERS ?? 1);
  const dispatchers: INestApplicationContext[] = [];
  for (let i = 0; i < replicas; i++) dispatchers.push(await NestFactory.createApplicationContext(DispatcherModule.forRoot(config), { logger: false }));

  const backend = config.REDIS_URL ? 'Redis' : 'PostgreSQL';
  console.log(`webhooks benchmark: BullMQ on ${backend}, ${replicas} dispatcher(s), concurrency ${config.WEBHOOK_DELIVERY_CONCURRENCY}`);
  const results: Record<string, unknown>[] = [];
  for (const scenario of [
    { name: '10,000 events -> 1 endpoint', events: 10_000, endpoints: 1 },
    { name: '2,000 events -> 5 endpoints', events: 2_000, endpoints: 5 },
  ] satisfies Scenario[]) {
    receipts.clear();
    requests = 0;
    const entityId = randomUUID();
    await pool.query(`INSERT INTO entities (id, code, name) VALUES ($1, $2, 'bench')`, [entityId, `b${randomBytes(4).toString('hex')}`]);
    const endpointIds: string[] = [];
    for (let i = 0; i < scenario.endpoints; i++) {
      const id = uuidv7();
      endpointIds.push(id);
      await pool.query(
        `INSERT INTO webhook_endpoints (id, entity_id, livemode, url, enabled_events, secret) VALUES ($1, $2, true, $3, '{*}', $4)`,
        [id, entityId, `${receiverUrl}?e=${i}`, `whsec_${randomBytes(32).toString('hex')}`],
      );
    }
    const committedAt = new Map<string, number>();
    const started = Date.now();
    for (let offset = 0; offset < scenario.events; offset += 100) {
      const ids = Array.from({ length: Math.min(100, scenario.events - offset) }, () => uuidv7());
      const data = ids.map((id, i) => JSON.stringify({ object: { id, object: 'order', number: offset + i, status: 'confirmed' } }));
      await pool.query(
        `INSERT INTO outbox_events (id, entity_id, livemode, type, api_version, data, created_at)
         SELECT id, $2, true, 'order.confirmed', $3, data::jsonb, now() FROM unnest($1::uuid[], $4::text[]) AS t(id, data)`,
        [ids, entityId, API_VERSION, data],
      );
      const at = Date.now();
      for (const id of ids) committedAt.set(id, at);
    }
    const expected = scenario.events * scenario.endpoints;
    const deadline = Date.now() + 10 * 60_000;
    while (receipts.size < expected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const finished = Math.max(...receipts.values());
    await new Promise((r) => setTimeout(r, 1000)); // late duplicates would show here
    const latencies = [...receipts.entries()].map(([key, at]) => at - committedAt.get(key.split(':')[1])!).sort((a, b) => a - b);
    const seconds = (finished - started) / 1000;
    const row = {
      scenario: scenario.name,
      deliveries: receipts.size,
      seconds: Number(seconds.toFixed(2)),
      'deliveries/s': Math.round(receipts.size / seconds),
      'p50 ms': percentile(latencies, 50),
      'p99 ms': percentile(latencies, 99),
      lost: expected - receipts.size,
      duplicated: requests - receipts.size,
    };
    results.push(row);
    console.log(JSON.stringify(row));
  }
  console.table(results);
  const target = config.REDIS_URL ? 1000 : 300;
  const ok = results.every((r) => (r['deliveries/s'] as number) >= target && r.lost === 0 && r.duplicated === 0);
  console.log(`target >= ${target} deliveries/s with zero lost/duplicated: ${ok ? 'met' : 'NOT met'}`);

  await Promise.all(dispatchers.map((d) => d.close()));
  receiver.closeAllConnections();
  receiver.close();
  await pool.end();
  await server.stop?.();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
