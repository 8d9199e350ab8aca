import { randomBytes } from 'node:crypto';
import { getQueueToken } from '@nestjs/bullmq';
import type { INestApplicationContext } from '@nestjs/common';
import type { Job, Queue } from 'bullmq';
import { QUEUE_NAMES, QueueName } from '#platform/queue/queues';
import { Clock } from '#platform/time/clock';
import { trialBalance } from '../accounting/support/accounting-fixtures';
import { expireIdempotencyKeys, idempotencyRecords } from '../support/database';
import { startDispatcher } from '../support/dispatcher';
import { waitFor } from '../support/eventually';
import { expectEvent } from '../support/expect-event';
import { api } from '../support/http';
import { journalEntriesOf } from '../support/journal';
import { listAll } from '../support/list-all';
import { outbox } from '../support/outbox';
import { startTestApp, TestApp } from '../support/test-app';
import { backdateEvents } from '../webhooks/webhook-harness';

const DAY_MS = 86_400_000;
/** How long a test waits for a round of its job: a few periods, on a machine that may be busy. */
const ROUND_WAIT_MS = 60_000;

// Each test starts a dispatcher and waits for several rounds of its job: minutes on a busy machine.
jest.setTimeout(240_000);

/**
 * The repeated jobs as they run in production: each test starts the dispatcher with its job's
 * period shortened through the job's own setting (and, for collections, the dispatcher's clock
 * moved ahead), so BullMQ's job scheduler queues the job and the dispatcher's worker runs it. No
 * test calls the service or the processor; each sets up its own records, so any one runs alone.
 */
describe('scheduled jobs run by their schedulers through the queues', () => {
  let app: TestApp;
  let live: ReturnType<typeof api>;
  let dispatcher: INestApplicationContext | undefined;
  let seq = 0;

  beforeAll(async () => {
    // The API schedules the maintenance queue's jobs: the idempotency purge every second here.
    app = await startTestApp({ IDEMPOTENCY_PURGE_MS: 1000 });
    live = api(app, app.seed.entities.primary.keys.live);
  }, 180_000);
  afterEach(async () => {
    await dispatcher?.close();
    dispatcher = undefined;
  });
  afterAll(async () => {
    await app?.close();
  });

  /**
   * A dispatcher with `period` (its job's setting) on queues of its own (a queue prefix of its
   * own): a schedule an earlier dispatcher of this file upserted with the default period keeps its
   * next round, up to an hour away, on the shared queues; here the first round is queued when
   * this dispatcher creates the schedule. The jobs of these tests are all scheduled and run by the
   * dispatcher, so nothing the API queues is missed.
   */
  const ownDispatcher = (period: Partial<TestApp['config']>) =>
    startDispatcher(app, { ...period, QUEUE_PREFIX: `t${randomBytes(4).toString('hex')}` });
  const queueOf = (name: QueueName): Queue =>
    dispatcher!.get<Queue>(getQueueToken(QUEUE_NAMES[name]) as never, { strict: false });
  /**
   * Waits for a job of `name` that the dispatcher finished after `since` (ms since the epoch) and
   * answers it: the proof that the scheduler queued it and a worker ran it. `returned`, when
   * given, is what the job must have answered (a round that started before a change of the
   * test's may finish after `since` and answer the state before it).
   */
  const finishedRun = (queue: QueueName, name: string, since: number, returned?: unknown): Promise<Job> =>
    waitFor(
      async () =>
        (await queueOf(queue).getJobs(['completed'])).find(
          (job) =>
            job.name === name &&
            (job.finishedOn ?? 0) > since &&
            (returned === undefined || JSON.stringify(job.returnvalue) === JSON.stringify(returned)),
        ),
      {
        timeoutMs: ROUND_WAIT_MS,
        everyMs: 100,
        label: `a ${name} job finished after ${new Date(since).toISOString()}`,
      },
    );

  it('pulls a connected storefront on INTEGRATION_IMPORT_INTERVAL_MS: its order, payout and ledger entries, once', async () => {
    const fees = (
      await live
        .post('/v1/accounting/ledger-accounts')
        .send({ code: '6910', name: 'Storefront fees', type: 'expense' })
        .expect(201)
    ).body as { id: string };
    const integration = (
      await live
        .post('/v1/integrations')
        .send({
          type: 'storefront',
          name: 'Scheduled sandbox shop',
          credentials: { api_key: 'sandbox_scheduled_key_31' },
          settings: { fee_account_id: fees.id },
        })
        .expect(201)
    ).body as { id: string };
    const runsOf = () =>
      listAll<{
        id: string;
        created_at: string;
        trigger: string;
        status: string;
        counts: Record<string, number>;
      }>(live, `/v1/integrations/${integration.id}/runs`).then((runs) =>
        runs.sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id)),
      );
    expect(await runsOf()).toEqual([]);

    dispatcher = await ownDispatcher({ INTEGRATION_IMPORT_INTERVAL_MS: 1000 });
    // Two finished rounds of the schedule: the first imports, the second finds everything imported.
    const runs = await waitFor(
      async () => {
        const firstTwo = (await runsOf()).slice(0, 2);
        return firstTwo.length === 2 && firstTwo.every((r) => r.status !== 'running') && firstTwo;
      },
      { timeoutMs: ROUND_WAIT_MS, everyMs: 200, label: 'two scheduled runs of the integration' },
    );
    expect(runs.map((r) => [r.trigger, r.status])).toEqual([
      ['schedule', 'succeeded'],
      ['schedule', 'succeeded'],
    ]);
    // The later round skipped what the earlier one imported.
    expect(runs[0].counts).toMatchObject({ orders_imported: 1, payouts_imported: 1 });
    expect(runs[1].counts).toMatchObject({ orders_imported: 0, payouts_imported: 0, payouts_skipped: 1 });

    // The sandbox shop's paid order SB-1001 (55.00) became one sales order, posted once.
    const orders = (await listAll(live, '/v1/orders')).filter(
      (o) => (o.metadata as Record<string, string>)?.integration_id === integration.id,
    );
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({ total: 55, metadata: { external_order_id: 'SB-1001' } });
    const imported = await journalEntriesOf(app, ['STOREFRONT_IMPORT'], [orders[0].id]);
    expect(imported).toHaveLength(1);
    expect(imported[0]).toMatchObject({ total_debit: 55, total_credit: 55 });
    // Its payout SB-PO-1: 55.00 gross less a 1.90 fee, the fee on the integration's fee account.
    const payouts = (
      await listAll<{ id: string; description: string }>(
        live,
        '/v1/journal-entries?source_type=STOREFRONT_PAYOUT',
      )
    ).filter((e) => e.description === 'Scheduled sandbox shop payout SB-PO-1');
    expect(payouts).toHaveLength(1);
    const payout = (await live.get(`/v1/journal-entries/${payouts[0].id}`).expect(200)).body as {
      lines: { account_id: string; debit_amount: number; credit_amount: number }[];
    };
    const gross = 55;
    const fee = 1.9;
    expect(payout.lines.filter((l) => l.account_id === fees.id)).toEqual([
      expect.objectContaining({ debit_amount: fee, credit_amount: 0 }),
    ]);
    expect(payout.lines.map((l) => [l.debit_amount, l.credit_amount])).toEqual(
      expect.arrayContaining([
        [Math.round((gross - fee) * 100) / 100, 0],
        [0, gross],
      ]),
    );
    expect(await trialBalance(app, app.seed.entities.primary.id)).toBe('0.0000');
  });

  it('marks an invoice overdue and charges its late fee on COLLECTIONS_SWEEP_MS, at the dispatcher clock, once', async () => {
    const terms = await live
      .post('/v1/payment-terms')
      .send({ name: 'Net 30 (scheduled)', code: `N30-SCHED-${++seq}`, net_days: 30 })
      .expect(201);
    const account = (
      await live
        .post('/v1/accounts')
        .send({ name: 'Scheduled late payer', payment_terms_id: terms.body.id })
        .expect(201)
    ).body as { id: string };
    await live
      .patch('/v1/accounting/settings')
      .send({
        late_fee_type: 'percent',
        late_fee_amount: 1.5,
        late_fee_minimum: null,
        late_fee_grace_days: 0,
        late_fee_frequency: 'per_invoice',
      })
      .expect(200);
    const amount = 1234;
    const created = await live
      .post('/v1/orders')
      .send({
        document_type: 'invoice',
        account_id: account.id,
        lines: [{ description: 'Scheduled consulting', quantity: 1, unit_price: amount }],
      })
      .expect(201);
    const invoice = (await live.post(`/v1/orders/${created.body.id}/confirm`).expect(200)).body as {
      id: string;
      due_date: string;
    };
    const get = async () =>
      (await live.get(`/v1/orders/${invoice.id}`).expect(200)).body as {
        collection_status: string;
        overdue_at: string | null;
      };

    dispatcher = await ownDispatcher({ COLLECTIONS_SWEEP_MS: 1000 });
    // A sweep at today's real time leaves the invoice alone: it is due in 30 days.
    await finishedRun('sales', 'run-collections', Date.now());
    expect(await get()).toMatchObject({ collection_status: 'current', overdue_at: null });

    // The dispatcher's clock moves to noon the day after the due date (the seeded entity keeps UTC books).
    const instant = Date.parse(`${invoice.due_date}T12:00:00Z`) + DAY_MS;
    dispatcher.get(Clock, { strict: false }).set(instant);
    const marked = await waitFor(
      async () => {
        const now = await get();
        return now.collection_status === 'overdue' && now;
      },
      { timeoutMs: ROUND_WAIT_MS, everyMs: 100, label: 'the invoice marked overdue by the sweep' },
    );
    // Marked at the dispatcher's (moved) clock, a few seconds after the instant at most.
    const overdueAt = Date.parse(marked.overdue_at!);
    expect(overdueAt).toBeGreaterThanOrEqual(instant);
    expect(overdueAt - instant).toBeLessThan(60_000);

    // Two more rounds after the charge: still one late fee (per invoice), 1.5% of 1,234.00 = 18.51.
    await finishedRun('sales', 'run-collections', Date.now());
    await finishedRun('sales', 'run-collections', Date.now());
    const fees = (
      (await live.get('/v1/orders?document_type=late_fee_invoice&limit=100').expect(200)).body.data as {
        id: string;
        source_order_id: string;
        total: number;
      }[]
    ).filter((o) => o.source_order_id === invoice.id);
    const expectedFee = Math.round(amount * 1.5) / 100;
    expect(expectedFee).toBe(18.51);
    expect(fees.map((f) => f.total)).toEqual([expectedFee]);
    const [entry] = await journalEntriesOf(app, ['LATE_FEE'], [fees[0].id]);
    expect(entry).toMatchObject({
      source_type: 'LATE_FEE',
      total_debit: expectedFee,
      total_credit: expectedFee,
    });
    const events = await outbox(app).typesOf(invoice.id);
    expect(events.filter((t) => t === 'invoice.overdue')).toHaveLength(1);
    const applied = (await outbox(app).all('invoice.late_fee_applied')).filter(
      (e) => e.data.object.source_order_id === invoice.id,
    );
    expect(applied.map((e) => e.data.object.id)).toEqual([fees[0].id]);
    // Both committed by the scheduled job (expectEvent refuses events that product work did not commit).
    await expectEvent(app, 'invoice.overdue', { id: invoice.id, collection_status: 'overdue' });
    await expectEvent(app, 'invoice.late_fee_applied', {
      id: fees[0].id,
      source_order_id: invoice.id,
      total: expectedFee,
    });
  });

  it('deletes idempotency keys past their TTL on IDEMPOTENCY_PURGE_MS and keeps the live ones', async () => {
    const keys = [1, 2, 3].map((n) => `sched-purge-${Date.now().toString(36)}-${n}`);
    for (const [i, k] of keys.entries())
      await live
        .post('/v1/tags')
        .set('Idempotency-Key', k)
        .send({ name: `scheduled purge ${i}` })
        .expect(201);
    const [fresh, ...stale] = keys;
    // SQL: a key reaches its TTL only by waiting IDEMPOTENCY_TTL_HOURS; these two expired a minute ago.
    await expireIdempotencyKeys(app, stale);
    const stored = async (k: string) => (await idempotencyRecords(app, k)).length;
    expect(await Promise.all(keys.map(stored))).toEqual([1, 1, 1]);

    const since = Date.now();
    // On the API's queues: the API schedules this job (every IDEMPOTENCY_PURGE_MS, set for the file).
    dispatcher = await startDispatcher(app);
    // The round that found the two expired keys deleted exactly those two.
    await finishedRun('maintenance', 'purge-idempotency-keys', since, { purged: 2 });
    expect(await Promise.all(keys.map(stored))).toEqual([1, 0, 0]);
    // The key still inside its TTL replays its first answer.
    const replay = await live
      .post('/v1/tags')
      .set('Idempotency-Key', fresh)
      .send({ name: 'scheduled purge 0' });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    // Once it expires too, a later round of the schedule deletes it.
    await expireIdempotencyKeys(app, [fresh]);
    await finishedRun('maintenance', 'purge-idempotency-keys', Date.now(), { purged: 1 });
    expect(await stored(fresh)).toBe(0);
  });

  it('deletes events past EVENT_RETENTION_DAYS on EVENT_PURGE_MS and keeps the younger ones', async () => {
    const tag = async (name: string) =>
      (await live.post('/v1/tags').send({ name }).expect(201)).body.id as string;
    const eventOf = async (id: string) => {
      const [event] = (await outbox(app).eventsOf(id)).filter((e) => e.type === 'setting.tag.created');
      return event.id;
    };
    const oldTag = await tag(`retention old ${++seq}`);
    const youngTag = await tag(`retention young ${++seq}`);
    const [oldEvent, youngEvent] = [await eventOf(oldTag), await eventOf(youngTag)];
    // SQL: no route writes an event's created_at; one day past the 30-day retention, one day inside it.
    await backdateEvents(app, [oldEvent], app.config.EVENT_RETENTION_DAYS + 1);
    await backdateEvents(app, [youngEvent], app.config.EVENT_RETENTION_DAYS - 1);
    const event = (id: string) => live.get(`/v1/entities/${app.seed.entities.primary.id}/events/${id}`);
    expect((await event(oldEvent)).status).toBe(200);

    const since = Date.now();
    dispatcher = await ownDispatcher({ EVENT_PURGE_MS: 1000 });
    const run = await finishedRun('webhooks', 'purge-events', since);
    expect(run.returnvalue).toMatchObject({ events: 1 });
    expect((await event(oldEvent)).status).toBe(404);
    expect((await event(youngEvent)).status).toBe(200);
    // The next round finds nothing more to delete.
    expect((await finishedRun('webhooks', 'purge-events', Date.now())).returnvalue).toMatchObject({
      events: 0,
    });
    expect((await event(youngEvent)).status).toBe(200);
  });
});
