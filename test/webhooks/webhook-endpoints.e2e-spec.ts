import {
  SIGNING_SECRET_PURPOSE,
  WebhooksMaintenanceProcessor,
  DeliveryAttemptRepository,
  OutboxDispatchRepository,
} from '#contexts/webhooks';
import { SecretBox } from '#platform/crypto/secret-box';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { DataSource } from 'typeorm';
import { api, expectError } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';
import { backdateEvents, publishEvents, storedSecret } from './webhook-harness';

describe('webhook endpoints and events API', () => {
  let app: TestApp;
  let live: ReturnType<typeof api>;
  let test: ReturnType<typeof api>;
  let entity: string;
  let base: string;

  beforeAll(async () => {
    app = await startTestApp({ LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent' });
    live = api(app, app.seed.entities.primary.keys.live);
    test = api(app, app.seed.entities.primary.keys.test);
    entity = app.seed.entities.primary.id;
    base = `/v1/entities/${entity}/webhook_endpoints`;
  });
  let strict: TestApp | undefined;
  afterAll(async () => {
    await strict?.close();
    await app.close();
  });

  it('lists the 118 event types in one page with family and description', async () => {
    const res = await live.get(`/v1/entities/${entity}/event_types`).expect(200);
    expect(res.body).toMatchObject({
      object: 'list',
      has_more: false,
      url: `/v1/entities/${entity}/event_types`,
    });
    expect(res.body.data).toHaveLength(118);
    expect(new Set(res.body.data.map((t: { family: string }) => t.family)).size).toBe(14);
    expect(res.body.data).toContainEqual({
      type: 'order.confirmed',
      family: 'order',
      description: expect.any(String),
    });
    for (const t of res.body.data) expect(Object.keys(t).sort()).toEqual(['description', 'family', 'type']);
    const readOnly = api(app, app.seed.entities.primary.keys.read_only);
    await readOnly.get(`/v1/entities/${entity}/event_types`).expect(200);
    const ordersOnly = api(app, app.seed.entities.primary.keys.orders_only);
    expectError(await ordersOnly.get(`/v1/entities/${entity}/event_types`), 403, 'insufficient_scope', {
      required: 'events:read',
    });
  });

  it('registers an endpoint, shows the secret once, and refuses a duplicate URL with existing_id', async () => {
    const created = await live
      .post(base)
      .send({
        url: 'http://127.0.0.1:9/a',
        enabled_events: ['order.confirmed', 'product.*'],
        description: 'Orders',
      })
      .expect(201);
    expect(created.body).toMatchObject({
      object: 'webhook_endpoint',
      url: 'http://127.0.0.1:9/a',
      status: 'active',
      disabled_reason: null,
      enabled_events: ['order.confirmed', 'product.*'],
      description: 'Orders',
      livemode: true,
    });
    expect(created.body.secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    const got = await live.get(`${base}/${created.body.id}`).expect(200);
    expect(got.body.secret).toBeUndefined();
    expect(got.body.id).toBe(created.body.id);
    const dup = await live.post(base).send({ url: 'http://127.0.0.1:9/a', enabled_events: ['*'] });
    expectError(dup, 409, 'duplicate_url', { type: 'conflict', existing_id: created.body.id });
    // Same URL in the other mode is another endpoint.
    const inTest = await test
      .post(base)
      .send({ url: 'http://127.0.0.1:9/a', enabled_events: ['*'] })
      .expect(201);
    expect(inTest.body.livemode).toBe(false);
  });

  it('accepts the events alias, shows only enabled_events, and refuses both with different values', async () => {
    const viaAlias = await live
      .post(base)
      .send({ url: 'http://127.0.0.1:9/alias', events: ['order.*'] })
      .expect(201);
    expect(viaAlias.body.enabled_events).toEqual(['order.*']);
    expect(viaAlias.body.events).toBeUndefined();
    const same = await live
      .post(base)
      .send({ url: 'http://127.0.0.1:9/alias2', events: ['*'], enabled_events: ['*'] })
      .expect(201);
    expect(same.body.enabled_events).toEqual(['*']);
    expectError(
      await live
        .post(base)
        .send({ url: 'http://127.0.0.1:9/alias3', events: ['*'], enabled_events: ['order.*'] }),
      400,
      'parameter_invalid',
      { param: 'events' },
    );
    const patched = await live
      .patch(`${base}/${viaAlias.body.id}`)
      .send({ events: ['invoice.paid'] })
      .expect(200);
    expect(patched.body.enabled_events).toEqual(['invoice.paid']);
    expectError(
      await live.patch(`${base}/${viaAlias.body.id}`).send({ events: ['*'], enabled_events: ['order.*'] }),
      400,
      'parameter_invalid',
      {
        param: 'events',
      },
    );
  });

  it('refuses unknown event names and patterns naming the element', async () => {
    const url = 'http://127.0.0.1:9/bad';
    expectError(
      await live.post(base).send({ url, enabled_events: ['order.confirmed', '*', 'order.exploded'] }),
      400,
      'parameter_invalid',
      {
        param: 'enabled_events[2]',
      },
    );
    expectError(await live.post(base).send({ url, enabled_events: ['nope.*'] }), 400, 'parameter_invalid', {
      param: 'enabled_events[0]',
    });
    expectError(
      await live.post(base).send({ url, events: ['order.*', 'account.address.*'] }),
      400,
      'parameter_invalid',
      { param: 'events[1]' },
    );
    expectError(await live.post(base).send({ url, enabled_events: [] }), 400, 'parameter_invalid', {
      param: 'enabled_events',
    });
    expectError(await live.post(base).send({ url, enabled_events: ['*', 5] }), 400, 'parameter_invalid', {
      param: 'enabled_events[1]',
    });
    expectError(await live.post(base).send({ url }), 400, 'parameter_missing', { param: 'enabled_events' });
    expectError(await live.post(base).send({ enabled_events: ['*'] }), 400, 'parameter_missing', {
      param: 'url',
    });
    expectError(
      await live.post(base).send({ url, enabled_events: ['*'], secret: 'x' }),
      400,
      'parameter_unknown',
      { param: 'secret' },
    );
  });

  it('applies the receiver URL rule', async () => {
    // A second API instance on the same database with the production setting (closed with the first).
    strict = await startTestApp(
      { WEBHOOK_ALLOW_PRIVATE_TARGETS: false, LOG_LEVEL: 'silent' },
      { sameDatabaseAs: app },
    );
    {
      const s = api(strict, app.seed.entities.primary.keys.live);
      for (const url of [
        'http://example.com/hook',
        'https://127.0.0.1/hook',
        'https://localhost/hook',
        'https://10.1.2.3/hook',
        'https://192.168.0.1/hook',
        'https://169.254.169.254/latest',
        'https://[::1]/hook',
        'https://[::ffff:127.0.0.1]/hook',
        'ftp://example.com/x',
        'not a url',
      ]) {
        expectError(await s.post(base).send({ url, enabled_events: ['*'] }), 400, 'parameter_invalid', {
          param: 'url',
        });
      }
      await s
        .post(base)
        .send({ url: 'https://93.184.215.14/hook', enabled_events: ['*'] })
        .expect(201);
      const created = (
        await live
          .post(base)
          .send({ url: 'http://127.0.0.1:9/later', enabled_events: ['*'] })
          .expect(201)
      ).body;
      expectError(
        await s.patch(`${base}/${created.id}`).send({ url: 'https://172.16.0.1/x' }),
        400,
        'parameter_invalid',
        { param: 'url' },
      );
      // Even with private targets allowed, metadata addresses are refused.
      expectError(
        await live.post(base).send({ url: 'http://169.254.169.254/latest', enabled_events: ['*'] }),
        400,
        'parameter_invalid',
        { param: 'url' },
      );
    }
  });

  it('lists, updates, disables, re-enables and deletes endpoints', async () => {
    const a = (
      await live
        .post(base)
        .send({ url: 'http://127.0.0.1:9/l1', enabled_events: ['*'] })
        .expect(201)
    ).body;
    const b = (
      await live
        .post(base)
        .send({ url: 'http://127.0.0.1:9/l2', enabled_events: ['*'] })
        .expect(201)
    ).body;
    const page = await live.get(`${base}?limit=1`).expect(200);
    expect(page.body).toMatchObject({ object: 'list', has_more: true, url: base });
    expect(page.body.data[0].id).toBe(b.id);
    expect(page.body.data[0].secret).toBeUndefined();
    const next = await live.get(`${base}?limit=1&starting_after=${b.id}`).expect(200);
    expect(next.body.data[0].id).toBe(a.id);

    const updated = await live
      .patch(`${base}/${a.id}`)
      .send({ url: 'http://127.0.0.1:9/l1b', description: 'new', enabled_events: ['order.*'] })
      .expect(200);
    expect(updated.body).toMatchObject({
      url: 'http://127.0.0.1:9/l1b',
      description: 'new',
      enabled_events: ['order.*'],
    });
    expectError(
      await live.patch(`${base}/${a.id}`).send({ url: 'http://127.0.0.1:9/l2' }),
      409,
      'duplicate_url',
      { existing_id: b.id },
    );
    expectError(await live.patch(`${base}/${a.id}`).send({ status: 'paused' }), 400, 'parameter_invalid', {
      param: 'status',
    });

    const disabled = await live.patch(`${base}/${a.id}`).send({ status: 'disabled' }).expect(200);
    expect(disabled.body).toMatchObject({ status: 'disabled', disabled_reason: 'manual' });
    expectError(await live.post(`${base}/${a.id}/test`), 409, 'invalid_state');
    const enabled = await live.patch(`${base}/${a.id}`).send({ status: 'active' }).expect(200);
    expect(enabled.body).toMatchObject({ status: 'active', disabled_reason: null });

    const deleted = await live.delete(`${base}/${a.id}`).expect(200);
    expect(deleted.body).toEqual({ id: a.id, object: 'webhook_endpoint', deleted: true });
    expectError(await live.get(`${base}/${a.id}`), 404, 'not_found');
    expectError(await live.delete(`${base}/${a.id}`), 404, 'not_found');
    const all = await live.get(`${base}?limit=100`).expect(200);
    expect(all.body.data.map((e: { id: string }) => e.id)).not.toContain(a.id);
  });

  it('rotates the secret and returns signing_secret', async () => {
    const created = (
      await live
        .post(base)
        .send({ url: 'http://127.0.0.1:9/rot', enabled_events: ['*'] })
        .expect(201)
    ).body;
    const rotated = await live.post(`${base}/${created.id}/rotate_secret`).expect(200);
    expect(rotated.body.signing_secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect(rotated.body.signing_secret).not.toBe(created.secret);
    const stored = await storedSecret(app, created.id);
    // Stored encrypted (SECRETS_KEY), never as shown.
    expect(stored).toMatch(/^enc:v1:/);
    expect(stored).not.toContain(rotated.body.signing_secret.slice(6));
    expect(app.get(SecretBox).open(stored, SIGNING_SECRET_PURPOSE)).toBe(rotated.body.signing_secret);
  });

  it('isolates endpoints by entity and mode, and enforces scopes', async () => {
    const created = (
      await live
        .post(base)
        .send({ url: 'http://127.0.0.1:9/iso', enabled_events: ['*'] })
        .expect(201)
    ).body;
    const other = api(app, app.seed.entities.secondary.keys.live);
    const otherBase = `/v1/entities/${app.seed.entities.secondary.id}/webhook_endpoints`;
    expectError(await other.get(`${otherBase}/${created.id}`), 404, 'not_found');
    expectError(await other.get(`${base}/${created.id}`), 403, 'entity_isolation_violation');
    expectError(await test.get(`${base}/${created.id}`), 404, 'not_found');
    expectError(await test.get(`${base}/${created.id}/deliveries`), 404, 'not_found');
    expectError(await test.post(`${base}/${created.id}/rotate_secret`), 404, 'not_found');
    const readOnly = api(app, app.seed.entities.primary.keys.read_only);
    await readOnly.get(`${base}/${created.id}`).expect(200);
    expectError(
      await readOnly.post(base).send({ url: 'http://127.0.0.1:9/ro', enabled_events: ['*'] }),
      403,
      'insufficient_scope',
      {
        required: 'webhooks:write',
      },
    );
    expectError(await readOnly.get(`${base}/${created.id}/deliveries`), 403, 'insufficient_scope', {
      required: 'webhooks:manage',
    });
  });

  it('serves events: list with filters and cursors, retrieve, isolation', async () => {
    const scope = { entityId: entity, livemode: true };
    const [first, second] = await publishEvents(app, scope, [
      { type: 'order.confirmed', object: { id: 'o1', object: 'order' } },
      { type: 'setting.tag.created', object: { id: 't1', object: 'tag' } },
    ]);
    const [testEvent] = await publishEvents(app, { entityId: entity, livemode: false }, [
      { type: 'order.confirmed', object: { id: 'o2' } },
    ]);
    const evBase = `/v1/entities/${entity}/events`;
    const got = await live.get(`${evBase}/${first}`).expect(200);
    expect(got.body).toMatchObject({
      id: first,
      object: 'event',
      type: 'order.confirmed',
      api_version: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      entity_id: entity,
      livemode: true,
      data: { object: { id: 'o1', object: 'order' } },
    });
    expect(got.body.created_at).toMatch(/Z$/);
    const filtered = await live.get(`${evBase}?type=order.confirmed&limit=100`).expect(200);
    expect(filtered.body.data.every((e: { type: string }) => e.type === 'order.confirmed')).toBe(true);
    expect(filtered.body.data.map((e: { id: string }) => e.id)).toContain(first);
    const list = await live.get(`${evBase}?limit=1`).expect(200);
    expect(list.body).toMatchObject({ object: 'list', has_more: true });
    expect(list.body.data[0].id).toBe(second);
    const created = got.body.created_at as string;
    const after = await live
      .get(
        `${evBase}?created_after=${encodeURIComponent(new Date(Date.parse(created) + 60_000).toISOString())}`,
      )
      .expect(200);
    expect(after.body.data).toEqual([]);
    const before = await live
      .get(
        `${evBase}?created_before=${encodeURIComponent(new Date(Date.parse(created) + 60_000).toISOString())}&limit=100`,
      )
      .expect(200);
    expect(before.body.data.map((e: { id: string }) => e.id)).toContain(first);
    expectError(await live.get(`${evBase}?type=order.exploded`), 400, 'parameter_invalid', { param: 'type' });
    expectError(await live.get(`${evBase}?created_after=yesterday`), 400, 'parameter_invalid', {
      param: 'created_after',
    });
    expectError(await live.get(`${evBase}/${testEvent}`), 404, 'not_found');
    await test.get(`${evBase}/${testEvent}`).expect(200);
    const other = api(app, app.seed.entities.secondary.keys.live);
    expectError(
      await other.get(`/v1/entities/${app.seed.entities.secondary.id}/events/${first}`),
      404,
      'not_found',
    );
    expectError(await live.get(`${evBase}/not-a-uuid`), 404, 'not_found');
    const ordersOnly = api(app, app.seed.entities.primary.keys.orders_only);
    expectError(await ordersOnly.get(evBase), 403, 'insufficient_scope', { required: 'events:read' });
  });

  it('purges events older than 30 days', async () => {
    const [old] = await publishEvents(app, { entityId: entity, livemode: true }, [
      { type: 'setting.tag.deleted', object: { id: 'old' } },
    ]);
    // An event past retention is made by backdating its stored row; no route writes created_at.
    await backdateEvents(app, [old], 31);
    const dataSource = app.get(DataSource);
    const processor = new WebhooksMaintenanceProcessor(
      new DeliveryAttemptRepository(dataSource, app.get(TransactionHost)),
      new OutboxDispatchRepository(dataSource),
      undefined as never,
      app.config,
    );
    const purged = await processor.purge();
    expect(purged.events).toBeGreaterThanOrEqual(1);
    expectError(await live.get(`/v1/entities/${entity}/events/${old}`), 404, 'not_found');
  });
});
