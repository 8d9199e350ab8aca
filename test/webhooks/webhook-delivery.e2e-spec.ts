import { createHmac } from 'node:crypto';
import { API_VERSION } from '#platform/events/event-publisher';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { INestApplicationContext } from '@nestjs/common';
import { verifySignature } from '../../libs/contexts/webhooks/verifier';
import { api, expectError } from '../support/http';
import { expectEvent } from '../support/expect-event';
import { outbox } from '../support/outbox';
import { startTestApp, TestApp } from '../support/test-app';
import { FAST_WEBHOOKS, startDispatcher } from '../support/dispatcher';
import { waitFor } from '../support/eventually';
import { DeliveryAttemptRepository, WebhookEndpointRepository } from '#contexts/webhooks';
import { asEntity } from '../support/as-entity';
import { publishEvents, ReceivedRequest, Receiver, Reply, startReceiver } from './webhook-harness';

const FAST = '100,100,100,100,100,100';

describe('webhook delivery by the dispatcher', () => {
  let app: TestApp;
  let dispatcher: INestApplicationContext;
  let receiver: Receiver;
  let live: ReturnType<typeof api>;
  let base: string;
  let entity: string;
  const behaviours = new Map<string, (req: ReceivedRequest, n: number) => Reply>();
  const counts = new Map<string, number>();

  beforeAll(async () => {
    app = await startTestApp();
    dispatcher = await startDispatcher(app, { ...FAST_WEBHOOKS, WEBHOOK_RETRY_DELAYS_MS: FAST });
    receiver = await startReceiver((req) => {
      const n = counts.get(req.path) ?? 0;
      counts.set(req.path, n + 1);
      return behaviours.get(req.path)?.(req, n) ?? { status: 200, body: 'ok' };
    });
    live = api(app, app.seed.entities.primary.keys.live);
    entity = app.seed.entities.primary.id;
    base = `/v1/entities/${entity}/webhook_endpoints`;
  });
  afterAll(async () => {
    await dispatcher.close();
    await receiver.close();
    await app.close();
  });

  const register = async (path: string, enabled_events: string[], key = live) =>
    (
      await key
        .post(base)
        .send({ url: receiver.url(path), enabled_events })
        .expect(201)
    ).body as { id: string; secret: string };
  const deliveries = async (endpointId: string) =>
    (await live.get(`${base}/${endpointId}/deliveries?limit=100`).expect(200)).body;
  const settled = (endpointId: string, count = 1) =>
    waitFor(
      async () => {
        const list = await deliveries(endpointId);
        return list.data.length >= count && list.data.every((d: { status: string }) => d.status !== 'pending')
          ? list
          : undefined;
      },
      { timeoutMs: 20_000, label: `deliveries of ${endpointId}` },
    );

  it('sends webhook.test with the six headers, the envelope and a signature both verifiers accept', async () => {
    const endpoint = await register('/test-event', ['order.confirmed']);
    const started = Math.floor(Date.now() / 1000);
    const queued = await live.post(`${base}/${endpoint.id}/test`).expect(200);
    expect(queued.body).toMatchObject({
      object: 'webhook_delivery',
      webhook_id: endpoint.id,
      event_type: 'webhook.test',
      status: 'pending',
    });
    // The test event carries the endpoint it was sent to.
    const ping = await expectEvent(app, 'webhook.test', { id: endpoint.id, object: 'webhook_endpoint' });
    expect(ping.id).toBe(queued.body.event_id);
    const [req] = await waitFor(() =>
      receiver.on('/test-event').length > 0 ? receiver.on('/test-event') : undefined,
    );
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers['service-webhook-id']).toBe(endpoint.id);
    expect(req.headers['service-event-type']).toBe('webhook.test');
    expect(req.headers['service-api-version']).toBe(API_VERSION);
    const body = JSON.parse(req.body);
    expect(req.headers['service-event-id']).toBe(body.id);
    expect(body).toMatchObject({
      object: 'event',
      type: 'webhook.test',
      entity_id: entity,
      livemode: true,
      api_version: req.headers['service-api-version'],
      data: { object: { id: endpoint.id, object: 'webhook_endpoint' } },
    });
    expect(body.data.object.secret).toBeUndefined();
    expect(body.created_at).toMatch(/Z$/);

    const header = req.headers['service-signature'] as string;
    const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header);
    expect(match).not.toBeNull();
    const t = Number(match![1]);
    expect(t).toBeGreaterThanOrEqual(started - 1);
    const independent = createHmac('sha256', endpoint.secret).update(`${t}.${req.body}`).digest('hex');
    expect(match![2]).toBe(independent);
    expect(verifySignature({ payload: req.body, header, secret: endpoint.secret })).toEqual({
      valid: true,
      timestamp: t,
    });
    expect(verifySignature({ payload: req.body + ' ', header, secret: endpoint.secret })).toEqual({
      valid: false,
      reason: 'invalid_signature',
    });
    expect(verifySignature({ payload: req.body, header, secret: endpoint.secret, now: t + 301 })).toEqual({
      valid: false,
      reason: 'timestamp_too_old',
    });

    const list = await settled(endpoint.id);
    expect(list).toMatchObject({ object: 'list', has_more: false, next_cursor: null });
    expect(list.data[0]).toMatchObject({
      status: 'succeeded',
      attempt_count: 1,
      response_status: 200,
      response_body: 'ok',
      event_id: body.id,
    });
    expect(list.data[0].delivered_at).not.toBeNull();
    const event = await live.get(`/v1/entities/${entity}/events/${body.id}`).expect(200);
    expect(event.body.type).toBe('webhook.test');
  });

  it('signs with the new secret at once after rotation', async () => {
    const endpoint = await register('/rotation', ['*']);
    const rotated = (await live.post(`${base}/${endpoint.id}/rotate_secret`).expect(200)).body;
    await live.post(`${base}/${endpoint.id}/test`).expect(200);
    const [req] = await waitFor(() =>
      receiver.on('/rotation').length > 0 ? receiver.on('/rotation') : undefined,
    );
    const header = req.headers['service-signature'] as string;
    expect(verifySignature({ payload: req.body, header, secret: endpoint.secret })).toEqual({
      valid: false,
      reason: 'invalid_signature',
    });
    expect(verifySignature({ payload: req.body, header, secret: rotated.signing_secret }).valid).toBe(true);
  });

  it('retries after a 500 and logs both attempts', async () => {
    behaviours.set('/flaky', (_req, n) =>
      n === 0 ? { status: 500, body: 'boom' } : { status: 200, body: 'fine' },
    );
    const endpoint = await register('/flaky', ['order.confirmed']);
    const [eventId] = await publishEvents(app, { entityId: entity, livemode: true }, [
      { type: 'order.confirmed', object: { id: 'o-flaky' } },
    ]);
    const list = await settled(endpoint.id);
    expect(receiver.on('/flaky')).toHaveLength(2);
    expect(list.data[0]).toMatchObject({
      event_id: eventId,
      status: 'succeeded',
      attempt_count: 2,
      response_status: 200,
      response_body: 'fine',
    });
    expect(list.data[0].failed_at).not.toBeNull();
    const [first, second] = receiver.on('/flaky');
    expect(first.body).toBe(second.body);
    expect(JSON.parse(second.body).id).toBe(eventId);
  });

  it('records a delivery to one endpoint while another endpoint of the same batch is still answering', async () => {
    behaviours.set('/slow-peer', () => ({ status: 200, body: 'late', delayMs: 4000 }));
    const slow = await register('/slow-peer', ['invoice.paid']);
    const fast = await register('/fast-peer', ['invoice.paid']);
    await publishEvents(app, { entityId: entity, livemode: true }, [
      { type: 'invoice.paid', object: { id: 'i-peers' } },
    ]);
    const fastDone = await settled(fast.id);
    expect(fastDone.data[0]).toMatchObject({ status: 'succeeded', attempt_count: 1 });
    // The slow receiver has the request but has not answered: its delivery alone is pending,
    // and a pending delivery cannot be resent.
    expect(receiver.on('/slow-peer')).toHaveLength(1);
    const pending = (await deliveries(slow.id)).data[0];
    expect(pending).toMatchObject({ status: 'pending', attempt_count: 1 });
    expectError(await live.post(`${base}/${slow.id}/deliveries/${pending.id}/resend`), 409, 'invalid_state');
    const slowDone = await settled(slow.id);
    expect(slowDone.data[0]).toMatchObject({ status: 'succeeded', attempt_count: 1, response_body: 'late' });
    expect(receiver.on('/slow-peer')).toHaveLength(1);
    await live.patch(`${base}/${slow.id}`).send({ status: 'disabled' }).expect(200);
    await live.patch(`${base}/${fast.id}`).send({ status: 'disabled' }).expect(200);
    // A disabled endpoint neither resends nor recovers.
    expectError(await live.post(`${base}/${slow.id}/deliveries/${pending.id}/resend`), 409, 'invalid_state');
    expectError(
      await live.post(`${base}/${slow.id}/recover`).send({ since: new Date(0).toISOString() }),
      409,
      'invalid_state',
    );
  });

  it('sends a delivery whose jobs all failed (a database error at the claim): the sweeper queues the attempt again', async () => {
    const endpoint = await register('/after-failed-jobs', ['product.created']);
    const repository = dispatcher.get(DeliveryAttemptRepository);
    const claim = repository.claim.bind(repository);
    // Five refusals: every run of the first job (three), then two runs of the sweeper's job for
    // the same attempt, which only exists if the failed job was not kept under its id.
    let refused = 0;
    const spy = jest.spyOn(repository, 'claim').mockImplementation(async (ids, leaseMs, slackMs) => {
      const mine = await app.db.query(
        'SELECT 1 FROM webhook_deliveries WHERE endpoint_id = $1 AND id = ANY($2::uuid[])',
        [endpoint.id, ids],
      );
      if (mine.rowCount && refused < 5) {
        refused++;
        throw new Error('Connection terminated unexpectedly');
      }
      return claim(ids, leaseMs, slackMs);
    });
    try {
      const [eventId] = await publishEvents(app, { entityId: entity, livemode: true }, [
        { type: 'product.created', object: { id: 'p-after-failed-jobs' } },
      ]);
      const list = await settled(endpoint.id);
      expect(refused).toBe(5);
      expect(receiver.on('/after-failed-jobs')).toHaveLength(1);
      expect(list.data[0]).toMatchObject({ event_id: eventId, status: 'succeeded', attempt_count: 1 });
    } finally {
      spy.mockRestore();
    }
  });

  it('sends the events of one transaction in a batch: a failure in it is retried alone, the others succeed once', async () => {
    let failed = false;
    behaviours.set('/batch', (req) => {
      if (JSON.parse(req.body).data.object.id === 'b3' && !failed) {
        failed = true;
        return { status: 500, body: 'boom' };
      }
      return { status: 200, body: 'ok' };
    });
    const endpoint = await register('/batch', ['order.confirmed']);
    const ids = await publishEvents(
      app,
      { entityId: entity, livemode: true },
      Array.from({ length: 12 }, (_, i) => ({ type: 'order.confirmed', object: { id: `b${i}` } })),
    );
    const list = await settled(endpoint.id, 12);
    expect(list.data.every((d: { status: string }) => d.status === 'succeeded')).toBe(true);
    const attempts = Object.fromEntries(
      list.data.map((d: { event_id: string; attempt_count: number }) => [d.event_id, d.attempt_count]),
    );
    expect(attempts).toEqual(Object.fromEntries(ids.map((id, i) => [id, i === 3 ? 2 : 1])));
    const received = receiver.on('/batch').map((r) => JSON.parse(r.body).id as string);
    expect(received).toHaveLength(13);
    expect(received.filter((id) => id === ids[3])).toHaveLength(2);
    expect(new Set(received)).toEqual(new Set(ids));
    for (const req of receiver.on('/batch')) {
      expect(
        verifySignature({
          payload: req.body,
          header: req.headers['service-signature'],
          secret: endpoint.secret,
        }).valid,
      ).toBe(true);
    }
  });

  it('sends again on a fresh connection a request whose reused keep-alive connection the receiver had closed', async () => {
    // This receiver closes a connection when a second request arrives on it, as a receiver does
    // whose idle timeout fires just as a pooled connection is reused.
    const answered: string[] = [];
    let resets = 0;
    const served = new WeakMap<object, number>();
    const server = http.createServer((req, res) => {
      const n = served.get(req.socket) ?? 0;
      served.set(req.socket, n + 1);
      if (n > 0) {
        resets++;
        req.socket.destroy();
        return;
      }
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        answered.push(JSON.parse(Buffer.concat(chunks).toString('utf8')).id as string);
        res.writeHead(200, { Connection: 'keep-alive' }).end('ok');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const endpoint = (
        await live
          .post(base)
          .send({ url: `http://127.0.0.1:${port}/reset`, enabled_events: ['order.confirmed'] })
          .expect(201)
      ).body as { id: string };
      const [first] = await publishEvents(app, { entityId: entity, livemode: true }, [
        { type: 'order.confirmed', object: { id: 'o-before-reset' } },
      ]);
      await settled(endpoint.id);
      const [second] = await publishEvents(app, { entityId: entity, livemode: true }, [
        { type: 'order.confirmed', object: { id: 'o-after-reset' } },
      ]);
      const list = await settled(endpoint.id, 2);
      expect(resets).toBe(1);
      expect(answered).toEqual([first, second]);
      expect(list.data).toEqual(
        expect.arrayContaining(
          [first, second].map((eventId) =>
            expect.objectContaining({
              event_id: eventId,
              status: 'succeeded',
              attempt_count: 1,
              failed_at: null,
            }),
          ),
        ),
      );
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('keeps the first 500 bytes of a response body and treats 3xx as failure', async () => {
    behaviours.set('/big', () => ({ status: 200, body: 'x'.repeat(2048) }));
    const big = await register('/big', ['order.created']);
    behaviours.set('/redirect', () => ({ status: 302, headers: { Location: receiver.url('/big') } }));
    const redirect = await register('/redirect', ['order.created']);
    await live
      .patch(`${base}/${redirect.id}`)
      .send({ enabled_events: ['order.created'] })
      .expect(200);
    await publishEvents(app, { entityId: entity, livemode: true }, [
      { type: 'order.created', object: { id: 'o-big' } },
    ]);
    const list = await settled(big.id);
    expect(list.data[0].response_body).toBe('x'.repeat(500));
    const redirected = await waitFor(async () => {
      const d = (await deliveries(redirect.id)).data[0];
      return d && d.attempt_count >= 2 ? d : undefined;
    });
    expect(redirected.response_status).toBe(302);
    await live.patch(`${base}/${redirect.id}`).send({ status: 'disabled' }).expect(200);
  });

  it('exhausts after 7 attempts with the fast schedule, emits webhook.delivery.exhausted, then resends and recovers', async () => {
    let healthy = false;
    behaviours.set('/down', () => (healthy ? { status: 200, body: 'back' } : { status: 503, body: 'down' }));
    const endpoint = await register('/down', ['invoice.*']);
    const [eventId] = await publishEvents(app, { entityId: entity, livemode: true }, [
      { type: 'invoice.paid', object: { id: 'i1' } },
    ]);
    const list = await settled(endpoint.id);
    expect(list.data[0]).toMatchObject({
      status: 'failed',
      attempt_count: 7,
      response_status: 503,
      next_retry_at: null,
    });
    expect(list.data[0].failed_at).not.toBeNull();
    expect(receiver.on('/down')).toHaveLength(7);
    const exhausted = (await outbox(app).eventsOf(list.data[0].id)).filter(
      (e) => e.type === 'webhook.delivery.exhausted',
    );
    expect(exhausted).toHaveLength(1);
    expect(exhausted[0].data.object).toMatchObject({
      event_id: eventId,
      status: 'failed',
      attempt_count: 7,
    });
    // Committed by the delivery job that made the last attempt.
    await expectEvent(app, 'webhook.delivery.exhausted', {
      id: list.data[0].id,
      event_id: eventId,
      status: 'failed',
      attempt_count: 7,
      response_status: 503,
    });

    healthy = true;
    const resent = await live.post(`${base}/${endpoint.id}/deliveries/${list.data[0].id}/resend`).expect(200);
    expect(resent.body.status).toBe('pending');
    const after = await settled(endpoint.id);
    expect(after.data[0]).toMatchObject({ status: 'succeeded', attempt_count: 8, response_status: 200 });
    const resentAgain = await live
      .post(`${base}/${endpoint.id}/deliveries/${list.data[0].id}/resend`)
      .expect(200);
    expect(resentAgain.body.status).toBe('pending');
    await settled(endpoint.id);

    // Recovery: two more failures while down, then re-queued oldest first in one background job.
    healthy = false;
    const since = new Date().toISOString();
    const ids = await publishEvents(app, { entityId: entity, livemode: true }, [
      { type: 'invoice.created', object: { id: 'i2' } },
      { type: 'invoice.voided', object: { id: 'i3' } },
    ]);
    await settled(endpoint.id, 3);
    const failedBefore = (await deliveries(endpoint.id)).data.filter(
      (d: { status: string }) => d.status === 'failed',
    );
    expect(failedBefore).toHaveLength(2);
    healthy = true;
    const before = receiver.on('/down').length;
    const recovery = await live.post(`${base}/${endpoint.id}/recover`).send({ since }).expect(200);
    expect(recovery.body).toMatchObject({
      object: 'webhook_recovery',
      webhook_id: endpoint.id,
      status: 'queued',
    });
    const recovered = await waitFor(async () => {
      const data = (await deliveries(endpoint.id)).data as { status: string }[];
      return data.every((d) => d.status === 'succeeded') ? data : undefined;
    });
    expect(recovered).toHaveLength(3);
    const resentBodies = receiver
      .on('/down')
      .slice(before)
      .map((r) => JSON.parse(r.body).id);
    expect(resentBodies.sort()).toEqual([...ids].sort());
    expect((await live.post(`${base}/${endpoint.id}/recover`).send({ since: 'yesterday' })).status).toBe(400);
  });

  it('disables an endpoint after 10 consecutive permanent failures (410) and resets on re-enable', async () => {
    behaviours.set('/gone', () => ({ status: 410, body: 'gone' }));
    const endpoint = await register('/gone', ['return.*']);
    const events = Array.from({ length: 10 }, (_, i) => ({
      type: 'return.created',
      object: { id: `r${i}` },
    }));
    await publishEvents(app, { entityId: entity, livemode: true }, events);
    const disabled = await waitFor(async () => {
      const got = (await live.get(`${base}/${endpoint.id}`).expect(200)).body;
      return got.status === 'disabled' ? got : undefined;
    });
    expect(disabled.disabled_reason).toBe('consecutive_failures');
    expect(receiver.on('/gone')).toHaveLength(10);
    const list = await deliveries(endpoint.id);
    expect(
      list.data.every(
        (d: { status: string; attempt_count: number }) => d.status === 'failed' && d.attempt_count === 1,
      ),
    ).toBe(true);
    const event = (await outbox(app).eventsOf(endpoint.id)).filter(
      (e) => e.type === 'webhook.endpoint.disabled',
    );
    expect(event).toHaveLength(1);
    expect(event[0].data.object).toMatchObject({
      status: 'disabled',
      disabled_reason: 'consecutive_failures',
    });
    expect(event[0].data.object.secret).toBeUndefined();
    // Committed by the delivery job of the tenth failure.
    await expectEvent(app, 'webhook.endpoint.disabled', {
      id: endpoint.id,
      url: receiver.url('/gone'),
      status: 'disabled',
      disabled_reason: 'consecutive_failures',
    });

    // Disabled endpoints receive nothing: once an active endpoint has the event, its fan-out (which
    // creates every endpoint's delivery at once) is done, and the disabled one has none of it.
    const witness = await register('/witness', ['return.received']);
    const [received] = await publishEvents(app, { entityId: entity, livemode: true }, [
      { type: 'return.received', object: { id: 'r10' } },
    ]);
    await settled(witness.id);
    expect(receiver.on('/witness').map((r) => JSON.parse(r.body).id)).toEqual([received]);
    expect((await deliveries(endpoint.id)).data).toHaveLength(10);
    expect(receiver.on('/gone')).toHaveLength(10);

    const enabled = await live.patch(`${base}/${endpoint.id}`).send({ status: 'active' }).expect(200);
    expect(enabled.body).toMatchObject({ status: 'active', disabled_reason: null });
    // The failure counter is no route's: the endpoint repository shows it.
    const stored = await asEntity(app, () => app.get(WebhookEndpointRepository).getById(endpoint.id));
    expect(stored.consecutiveFailures).toBe(0);
  });

  it('counts only consecutive failures: a success in between starts the count again', async () => {
    // The receiver refuses for good (410) except its 10th request; 9 + 1 + 9 events, each batch
    // settled before the next, so the order of the answers is the order of the requests.
    behaviours.set('/consecutive', (_req, n) =>
      n === 9 ? { status: 200, body: 'ok' } : { status: 410, body: 'gone' },
    );
    const endpoint = await register('/consecutive', ['return.*']);
    const batch = (from: number, count: number) =>
      Array.from({ length: count }, (_, i) => ({ type: 'return.created', object: { id: `f${from + i}` } }));
    await publishEvents(app, { entityId: entity, livemode: true }, batch(0, 9));
    await settled(endpoint.id, 9);
    await publishEvents(app, { entityId: entity, livemode: true }, batch(9, 1));
    await settled(endpoint.id, 10);
    await publishEvents(app, { entityId: entity, livemode: true }, batch(10, 9));
    const list = await settled(endpoint.id, 19);
    const statuses = (list.data as { status: string }[]).map((d) => d.status);
    expect(statuses.filter((s) => s === 'failed')).toHaveLength(18);
    expect(statuses.filter((s) => s === 'succeeded')).toHaveLength(1);
    // 18 failures in all, never 10 in a row: the endpoint stays active, 9 failures counted.
    const got = (await live.get(`${base}/${endpoint.id}`).expect(200)).body;
    expect(got).toMatchObject({ status: 'active', disabled_reason: null });
    const stored = await asEntity(app, () => app.get(WebhookEndpointRepository).getById(endpoint.id));
    expect(stored.consecutiveFailures).toBe(9);
  });

  it('delivers a family wildcard only its family, and test-mode events only to test endpoints', async () => {
    const settings = await register('/family', ['setting.*']);
    const liveAll = await register('/live-all', ['*']);
    const test = api(app, app.seed.entities.primary.keys.test);
    const testAll = await register('/test-all', ['*'], test);
    await live.post('/v1/tags').send({ name: 'family member' }).expect(201);
    await publishEvents(app, { entityId: entity, livemode: true }, [
      { type: 'order.confirmed', object: { id: 'o-w' } },
      { type: 'product.created', object: { id: 'p-w' } },
    ]);
    const [testEventId] = await publishEvents(app, { entityId: entity, livemode: false }, [
      { type: 'setting.created', object: { id: 's-t' } },
    ]);
    await test.post('/v1/tags').send({ name: 'test tag' }).expect(201);

    await settled(liveAll.id, 3);
    const testList = await waitFor(async () => {
      const list = (await test.get(`${base}/${testAll.id}/deliveries`).expect(200)).body;
      return list.data.length >= 2 && list.data.every((d: { status: string }) => d.status === 'succeeded')
        ? list
        : undefined;
    });
    await settled(settings.id);
    // Every live event is fanned out (the `*` endpoint has all three), so these lists are complete.
    expect((await deliveries(settings.id)).data).toHaveLength(1);
    const familyTypes = receiver.on('/family').map((r) => JSON.parse(r.body).type);
    expect(familyTypes).toEqual(['setting.tag.created']);
    const liveBodies = receiver.on('/live-all').map((r) => JSON.parse(r.body));
    expect(liveBodies.every((b) => b.livemode === true)).toBe(true);
    expect(liveBodies.map((b) => b.id)).not.toContain(testEventId);
    const testBodies = receiver.on('/test-all').map((r) => JSON.parse(r.body));
    expect(testBodies.every((b) => b.livemode === false)).toBe(true);
    expect(testBodies.map((b) => b.type).sort()).toEqual(['setting.created', 'setting.tag.created']);
    expect(testList.data.every((d: { livemode: boolean }) => d.livemode === false)).toBe(true);
  });

  it('pages the delivery log most recent first with next_cursor', async () => {
    const endpoint = await register('/paged', ['account.*']);
    await publishEvents(
      app,
      { entityId: entity, livemode: true },
      Array.from({ length: 3 }, (_, i) => ({ type: 'account.created', object: { id: `a${i}` } })),
    );
    const all = await settled(endpoint.id, 3);
    const first = (await live.get(`${base}/${endpoint.id}/deliveries?limit=2`).expect(200)).body;
    expect(first).toMatchObject({ object: 'list', has_more: true, next_cursor: first.data[1].id });
    expect(first.data.map((d: { id: string }) => d.id)).toEqual(
      all.data.slice(0, 2).map((d: { id: string }) => d.id),
    );
    expect(first.data[0].id > first.data[1].id).toBe(true);
    const second = (
      await live
        .get(`${base}/${endpoint.id}/deliveries?limit=2&starting_after=${first.next_cursor}`)
        .expect(200)
    ).body;
    expect(second).toMatchObject({ has_more: false, next_cursor: null });
    expect(second.data).toHaveLength(1);
    const one = await live.get(`${base}/${endpoint.id}/deliveries/${second.data[0].id}`).expect(200);
    expect(one.body.id).toBe(second.data[0].id);
    const other = await register('/paged-other', ['account.*']);
    expect((await live.get(`${base}/${other.id}/deliveries/${second.data[0].id}`)).status).toBe(404);
    expect((await live.post(`${base}/${other.id}/deliveries/${second.data[0].id}/resend`)).status).toBe(404);
    expect((await live.post(`${base}/${endpoint.id}/deliveries/${second.data[0].id}/resend`)).status).toBe(
      200,
    );
  });
});
