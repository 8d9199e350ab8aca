import { ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { getQueueToken } from '@nestjs/bullmq';
import type { INestApplicationContext } from '@nestjs/common';
import type { Job, Queue } from 'bullmq';
import { DeliveryQueue } from '#contexts/webhooks';
import { QUEUE_NAMES } from '#platform/queue/queues';
import { drained, FAST_WEBHOOKS, startDispatcher } from '../support/dispatcher';
import { waitFor } from '../support/eventually';
import { api } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';
import { orphanDeliveries, publishEvents, Receiver, startReceiver } from './webhook-harness';

/**
 * The dispatcher of the build (`npm run build`, as global setup's migrations and the child
 * processes of test/support/child-processes.ts), run as its own process.
 */
const DISPATCHER_MAIN = path.resolve(__dirname, '../../dist/apps/webhook-dispatcher/main.js');

/** The real dispatcher process of the build, on the test app's database and queues. */
function spawnDispatcher(app: TestApp): ChildProcess {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    DATABASE_URL: app.databaseUrl,
    QUEUE_PREFIX: app.config.QUEUE_PREFIX,
    LOG_LEVEL: 'silent',
    DISPATCHER_HEALTH_PORT: '0',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    WEBHOOK_CLAIM_LEASE_MS: '6000',
    WEBHOOK_SWEEP_INTERVAL_MS: '300',
    WEBHOOK_OUTBOX_POLL_MS: '100',
    WEBHOOK_DELIVERY_CONCURRENCY: '4',
    // As in test apps: no scheduled pull of the seeded sandbox shop, whose imported orders
    // (order.created) would reach this test's order.* endpoint.
    INTEGRATION_IMPORT_INTERVAL_MS: '0',
    DB_POOL_MAX: String(app.config.DB_POOL_MAX),
    QUEUE_DB_POOL_MAX: String(app.config.QUEUE_DB_POOL_MAX),
  };
  if (app.config.REDIS_URL) env.REDIS_URL = app.config.REDIS_URL;
  return spawn(process.execPath, [DISPATCHER_MAIN], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
}

describe('dispatcher resilience', () => {
  let app: TestApp;
  let receiver: Receiver;
  let live: ReturnType<typeof api>;
  let base: string;
  let entity: string;
  const slow = new Set<string>();
  /** Paths answered with 500 (after `delayMs`, like every path of `slow`). */
  const failing = new Set<string>();

  beforeAll(async () => {
    if (!existsSync(DISPATCHER_MAIN))
      throw new Error(`${DISPATCHER_MAIN} is missing: run \`npm run build\` first`);
    app = await startTestApp();
    receiver = await startReceiver((req) => ({
      status: failing.has(req.path) ? 500 : 200,
      body: failing.has(req.path) ? 'boom' : 'ok',
      delayMs: slow.has(req.path) ? 400 : undefined,
    }));
    live = api(app, app.seed.entities.primary.keys.live);
    entity = app.seed.entities.primary.id;
    base = `/v1/entities/${entity}/webhook_endpoints`;
  }, 180_000);
  afterAll(async () => {
    await receiver?.close();
    await app?.close();
  });

  /** The endpoint's deliveries (of one status, where given), read through the API a page at a time. */
  async function deliveriesOf(
    endpointId: string,
    status?: string,
  ): Promise<{ id: string; status: string; attempt_count: number }[]> {
    const all: { id: string; status: string; attempt_count: number }[] = [];
    for (;;) {
      const after = all.length > 0 ? `&starting_after=${all[all.length - 1].id}` : '';
      const filter = status ? `&status=${status}` : '';
      const page = (await live.get(`${base}/${endpointId}/deliveries?limit=100${filter}${after}`).expect(200))
        .body;
      all.push(...page.data);
      if (!page.has_more) return all;
    }
  }
  const succeeded = async (endpointId: string) => (await deliveriesOf(endpointId, 'succeeded')).length;
  const maxAttempts = async (endpointId: string) =>
    Math.max(...(await deliveriesOf(endpointId)).map((d) => d.attempt_count));

  const deliveredIds = (p: string) => new Set(receiver.on(p).map((r) => JSON.parse(r.body).id as string));

  it('delivers every event at least once when a dispatcher process is killed with deliveries pending and restarted', async () => {
    slow.add('/crash');
    const endpoint = (
      await live
        .post(base)
        .send({ url: receiver.url('/crash'), enabled_events: ['order.*'] })
        .expect(201)
    ).body;
    const ids = await publishEvents(
      app,
      { entityId: entity, livemode: true },
      Array.from({ length: 30 }, (_, i) => ({ type: 'order.updated', object: { id: `o${i}` } })),
    );
    const first = spawnDispatcher(app);
    await waitFor(() => receiver.on('/crash').length >= 4, { timeoutMs: 30_000, label: 'first deliveries' });
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));
    // Only attempts that had reached the receiver before the kill can be sent again. What the
    // killed process had written is read by the receiver after the exit: the snapshot waits
    // until its connections are closed, which comes after their last request was read.
    await waitFor(async () => (await receiver.openConnections()) === 0, {
      timeoutMs: 10_000,
      label: 'the killed dispatcher connections closed',
    });
    const receivedBeforeKill = deliveredIds('/crash');
    expect((await deliveriesOf(endpoint.id, 'pending')).length).toBeGreaterThan(0);

    slow.delete('/crash');
    const second = spawnDispatcher(app);
    try {
      await waitFor(async () => (await succeeded(endpoint.id)) === 30, {
        timeoutMs: 60_000,
        label: 'all deliveries succeeded',
      });
      const received = deliveredIds('/crash');
      for (const id of ids) expect(received.has(id)).toBe(true);
      // 0 lost; at least once means a resend only of what had reached the receiver before the
      // kill: every event received twice or more is one of those, sent again at most once each.
      expect(received.size).toBe(30);
      const bodies = receiver.on('/crash').map((r) => JSON.parse(r.body).id as string);
      const repeated = [...new Set(bodies.filter((id, i) => bodies.indexOf(id) !== i))];
      expect(repeated.filter((id) => !receivedBeforeKill.has(id))).toEqual([]);
      expect(bodies.length - received.size).toBeLessThanOrEqual(receivedBeforeKill.size);
    } finally {
      second.kill('SIGTERM');
      await new Promise((resolve) => second.once('exit', resolve));
    }
  }, 120_000);

  it('re-enqueues from PostgreSQL when queue jobs are lost', async () => {
    const endpoint = (
      await live
        .post(base)
        .send({ url: receiver.url('/lost'), enabled_events: ['payment.*'] })
        .expect(201)
    ).body;
    // Deliveries due now with no queue job at all: only the sweeper can find them.
    const [eventId] = await publishEvents(app, { entityId: entity, livemode: true }, [
      { type: 'payment.succeeded', object: { id: 'p1' } },
    ]);
    await orphanDeliveries(
      app,
      { entityId: entity, endpointId: endpoint.id, eventType: 'payment.succeeded' },
      [eventId],
      { attemptCount: 2, dueSecondsAgo: 60 },
    );
    const dispatcher = await startDispatcher(app, FAST_WEBHOOKS);
    try {
      await waitFor(() => receiver.on('/lost').length === 1, { timeoutMs: 20_000, label: 'swept delivery' });
      const row = await waitFor(async () => {
        const [delivery] = await deliveriesOf(endpoint.id);
        return delivery?.status === 'succeeded' ? delivery : undefined;
      });
      expect(row.attempt_count).toBe(3);
    } finally {
      await dispatcher.close();
    }
  });

  it('sends an attempt once when its delivery is in several queued jobs (batch, single, sweeper)', async () => {
    const endpoint = (
      await live
        .post(base)
        .send({ url: receiver.url('/doubled'), enabled_events: ['return.*'] })
        .expect(201)
    ).body;
    const eventIds = await publishEvents(
      app,
      { entityId: entity, livemode: true },
      Array.from({ length: 6 }, (_, i) => ({ type: 'return.created', object: { id: `r${i}` } })),
    );
    const inserted = await orphanDeliveries(
      app,
      { entityId: entity, endpointId: endpoint.id, eventType: 'return.created' },
      eventIds,
    );
    const due = inserted.map((id) => ({ id, attempt: 1 }));
    const dispatcher = await startDispatcher(app, FAST_WEBHOOKS);
    try {
      const queue = dispatcher.get(DeliveryQueue);
      await Promise.all([
        queue.enqueue(due),
        queue.enqueue([...due].reverse()),
        ...due.slice(0, 3).map((d) => queue.enqueue([d])),
        queue.enqueue(due.slice(2)),
      ]);
      await waitFor(async () => (await succeeded(endpoint.id)) === 6, {
        timeoutMs: 20_000,
        label: '6 deliveries',
      });
      // A second send of an attempt would be made by a job still queued: none carrying them is left.
      const ids = new Set(due.map((d) => d.id));
      const carries = (job: Job) =>
        [job.data.deliveryId, ...(job.data.deliveryIds ?? [])].some((id: string) => ids.has(id));
      await waitFor(
        () => drained(dispatcher.get<Queue>(getQueueToken(QUEUE_NAMES['webhook-deliveries'])), carries),
        {
          label: 'the jobs of these attempts run',
        },
      );
      const received = receiver.on('/doubled').map((r) => JSON.parse(r.body).id as string);
      expect(received.sort()).toEqual([...eventIds].sort());
      expect(await maxAttempts(endpoint.id)).toBe(1);
    } finally {
      await dispatcher.close();
    }
  });

  it('never sends one attempt twice with two dispatcher replicas', async () => {
    const endpoint = (
      await live
        .post(base)
        .send({ url: receiver.url('/replicas'), enabled_events: ['inventory.*'] })
        .expect(201)
    ).body;
    const replicas: INestApplicationContext[] = [
      await startDispatcher(app, FAST_WEBHOOKS),
      await startDispatcher(app, FAST_WEBHOOKS),
    ];
    try {
      const ids: string[] = [];
      for (let batch = 0; batch < 4; batch++) {
        ids.push(
          ...(await publishEvents(
            app,
            { entityId: entity, livemode: true },
            Array.from({ length: 50 }, (_, i) => ({
              type: 'inventory.adjusted',
              object: { id: `i${batch}-${i}` },
            })),
          )),
        );
      }
      await waitFor(async () => (await succeeded(endpoint.id)) === 200, {
        timeoutMs: 40_000,
        label: '200 deliveries',
      });
      const bodies = receiver.on('/replicas').map((r) => JSON.parse(r.body).id as string);
      expect(bodies).toHaveLength(200);
      expect(new Set(bodies).size).toBe(200);
      expect(new Set(bodies)).toEqual(new Set(ids));
      expect(await maxAttempts(endpoint.id)).toBe(1);
    } finally {
      await Promise.all(replicas.map((r) => r.close()));
    }
  });
  it('lets the attempts in flight finish when it shuts down and records them; the next dispatcher sends the retry', async () => {
    slow.add('/closing-ok');
    slow.add('/closing-retry');
    failing.add('/closing-retry');
    const register = async (path: string) =>
      (
        await live
          .post(base)
          .send({ url: receiver.url(path), enabled_events: ['account.created'] })
          .expect(201)
      ).body as { id: string };
    const ok = await register('/closing-ok');
    const retried = await register('/closing-retry');
    // Retries 100 ms apart: the one shutdown leaves is due by the time the next dispatcher starts.
    const settings = { ...FAST_WEBHOOKS, WEBHOOK_RETRY_DELAYS_MS: '100,100,100,100,100,100' };
    const dispatcher = await startDispatcher(app, settings);
    let closed = false;
    try {
      await publishEvents(app, { entityId: entity, livemode: true }, [
        { type: 'account.created', object: { id: 'a-closing' } },
      ]);
      // Both requests reached the receiver, which answers them 400 ms later.
      await waitFor(
        () => receiver.on('/closing-ok').length === 1 && receiver.on('/closing-retry').length === 1,
        {
          label: 'requests in flight',
        },
      );
      const closing = dispatcher.close().then(() => 'closed');
      const outcome = await Promise.race([
        closing,
        new Promise((resolve) => setTimeout(() => resolve('still closing after 15 s'), 15_000)),
      ]);
      expect(outcome).toBe('closed');
      closed = true;
      const [sent] = await deliveriesOf(ok.id);
      expect(sent).toMatchObject({ status: 'succeeded', attempt_count: 1, response_status: 200 });
      const [due] = await deliveriesOf(retried.id);
      expect(due).toMatchObject({ status: 'pending', attempt_count: 1, response_status: 500 });
    } finally {
      if (!closed) void dispatcher.close();
    }
    // The retry is due in PostgreSQL (and queued): the next dispatcher sends it.
    failing.delete('/closing-retry');
    const next = await startDispatcher(app, settings);
    try {
      await waitFor(async () => (await succeeded(retried.id)) === 1, { label: 'retry after restart' });
      expect(await maxAttempts(retried.id)).toBe(2);
      expect(receiver.on('/closing-ok')).toHaveLength(1);
    } finally {
      await next.close();
    }
  });
});
