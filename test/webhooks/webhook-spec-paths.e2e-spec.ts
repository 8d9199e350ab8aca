import type { INestApplicationContext } from '@nestjs/common';
import { ledgerFixtures } from '../accounting/support/accounting-fixtures';
import { api, expectError } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';
import { FAST_WEBHOOKS, startDispatcher } from '../support/dispatcher';
import { waitFor } from '../support/eventually';
import { Receiver, startReceiver } from './webhook-harness';

/**
 * The published paths and names: the flat `/webhook_endpoints/...` form of every webhook
 * endpoint route (same scopes as the entity-prefixed form), and family wildcards such as
 * `accounting.*` that select exactly the types starting with the family.
 */
describe('webhook endpoints in the flat form', () => {
  let app: TestApp;
  let dispatcher: INestApplicationContext;
  let receiver: Receiver;
  let live: ReturnType<typeof api>;
  let prefixed: string;
  const flat = '/v1/webhook_endpoints';

  beforeAll(async () => {
    app = await startTestApp();
    dispatcher = await startDispatcher(app, {
      ...FAST_WEBHOOKS,
      WEBHOOK_RETRY_DELAYS_MS: '100,100,100,100,100,100',
    });
    receiver = await startReceiver();
    live = api(app, app.seed.entities.primary.keys.live);
    prefixed = `/v1/entities/${app.seed.entities.primary.id}/webhook_endpoints`;
  });
  afterAll(async () => {
    await dispatcher.close();
    await receiver.close();
    await app.close();
  });

  const types = (path: string) => receiver.on(path).map((r) => (JSON.parse(r.body) as { type: string }).type);

  it('subscribes to accounting.* and receives accounting.journal_entry.* events; refuses journal_entry.*', async () => {
    const accounting = await live
      .post(flat)
      .send({ url: receiver.url('/accounting'), enabled_events: ['accounting.*'] })
      .expect(201);
    expect(accounting.body.enabled_events).toEqual(['accounting.*']);
    await live
      .post(flat)
      .send({ url: receiver.url('/products'), enabled_events: ['product.*'] })
      .expect(201);

    const refused = await live
      .post(flat)
      .send({ url: receiver.url('/old-name'), enabled_events: ['journal_entry.*'] });
    expectError(refused, 400, 'parameter_invalid', { param: 'enabled_events[0]' });
    expectError(
      await live
        .post(prefixed)
        .send({ url: receiver.url('/old-name'), enabled_events: ['journal_entry.posted'] }),
      400,
      'parameter_invalid',
      { param: 'enabled_events[0]' },
    );

    const fx = ledgerFixtures(app);
    await live
      .post('/v1/journal-entries')
      .send({
        entry_date: fx.openPeriod.start_date,
        lines: [
          { account_id: fx.accounts.expense, debit_amount: 12.5 },
          { account_id: fx.accounts.cash, credit_amount: 12.5 },
        ],
      })
      .expect(201);
    const received = await waitFor(
      () => (receiver.on('/accounting').length > 0 ? types('/accounting') : undefined),
      { timeoutMs: 20_000, label: 'the accounting delivery' },
    );
    expect(received.length).toBeGreaterThan(0);
    for (const type of received) expect(type).toMatch(/^accounting\.journal_entry\./);
    expect(types('/products').filter((t) => t.startsWith('accounting.'))).toEqual([]);
  });

  it('serves every webhook endpoint route in the flat form, with the same answers as the prefixed form', async () => {
    const created = await live
      .post(flat)
      .send({ url: receiver.url('/flat'), enabled_events: ['setting.tag.created'], description: 'flat' })
      .expect(201);
    const id = created.body.id as string;
    expect(created.body.secret).toEqual(expect.any(String));

    const retrieved = await live.get(`${flat}/${id}`).expect(200);
    expect(retrieved.body).toEqual((await live.get(`${prefixed}/${id}`).expect(200)).body);
    const listed = await live.get(`${flat}?limit=100`).expect(200);
    expect(listed.body.url).toBe(flat);
    expect(listed.body.data.map((e: { id: string }) => e.id)).toContain(id);
    const listedPrefixed = await live.get(`${prefixed}?limit=100`).expect(200);
    expect(listed.body.data).toEqual(listedPrefixed.body.data);

    const updated = await live.patch(`${flat}/${id}`).send({ description: 'flat, updated' }).expect(200);
    expect(updated.body.description).toBe('flat, updated');
    const rotated = await live.post(`${flat}/${id}/rotate_secret`).expect(200);
    expect(rotated.body.signing_secret).toEqual(expect.any(String));

    const test = await live.post(`${flat}/${id}/test`).expect(200);
    expect(test.body).toMatchObject({
      object: 'webhook_delivery',
      webhook_id: id,
      event_type: 'webhook.test',
    });
    await live.post('/v1/tags').send({ name: 'flat webhook' }).expect(201);
    await waitFor(
      async () => {
        const all = await live.get(`${flat}/${id}/deliveries?limit=100`).expect(200);
        return all.body.data.length >= 2 &&
          all.body.data.every((d: { status: string }) => d.status !== 'pending')
          ? all
          : undefined;
      },
      { timeoutMs: 20_000, label: 'two settled deliveries' },
    );
    // Both pages are read once every delivery has settled, so neither can see a newer one.
    const page = await live.get(`${flat}/${id}/deliveries?limit=1`).expect(200);
    // The flat deliveries path returns the same page as the prefixed one (the list url is the path called).
    const samePrefixed = await live.get(`${prefixed}/${id}/deliveries?limit=1`).expect(200);
    const { url: flatUrl, ...flatPage } = page.body;
    const { url: prefixedUrl, ...prefixedPage } = samePrefixed.body;
    expect(flatPage).toEqual(prefixedPage);
    expect(flatPage.has_more).toBe(true);
    expect(flatUrl).toBe(`${flat}/${id}/deliveries`);
    expect(prefixedUrl).toBe(`${prefixed}/${id}/deliveries`);
    const cursor = page.body.data[0].id as string;
    const next = await live.get(`${flat}/${id}/deliveries?limit=1&starting_after=${cursor}`).expect(200);
    const nextPrefixed = await live
      .get(`${prefixed}/${id}/deliveries?limit=1&starting_after=${cursor}`)
      .expect(200);
    expect(next.body.data).toEqual(nextPrefixed.body.data);

    const delivery = await live.get(`${flat}/${id}/deliveries/${cursor}`).expect(200);
    expect(delivery.body).toEqual(
      (await live.get(`${prefixed}/${id}/deliveries/${cursor}`).expect(200)).body,
    );
    const resent = await live.post(`${flat}/${id}/deliveries/${cursor}/resend`).expect(200);
    expect(resent.body).toMatchObject({ id: cursor, status: 'pending' });

    const recovered = await live
      .post(`${flat}/${id}/recover`)
      .send({ since: new Date(0).toISOString() })
      .expect(200);
    expect(recovered.body).toMatchObject({ object: 'webhook_recovery', webhook_id: id });

    const deleted = await live.delete(`${flat}/${id}`).expect(200);
    expect(deleted.body).toEqual({ id, object: 'webhook_endpoint', deleted: true });
    expectError(await live.get(`${flat}/${id}`), 404, 'not_found');
    expectError(await live.get(`${prefixed}/${id}`), 404, 'not_found');
  });

  it('applies the same scopes and entity isolation to the flat form', async () => {
    const id = (
      await live
        .post(flat)
        .send({ url: receiver.url('/scoped'), enabled_events: ['*'] })
        .expect(201)
    ).body.id as string;
    const readOnly = api(app, app.seed.entities.primary.keys.read_only);
    const ordersOnly = api(app, app.seed.entities.primary.keys.orders_only);
    const calls: [string, (k: ReturnType<typeof api>, base: string) => Promise<{ status: number }>][] = [
      ['list', (k, base) => k.get(base)],
      ['retrieve', (k, base) => k.get(`${base}/${id}`)],
      ['create', (k, base) => k.post(base).send({ url: receiver.url('/x'), enabled_events: ['*'] })],
      ['update', (k, base) => k.patch(`${base}/${id}`).send({ description: 'x' })],
      ['deliveries', (k, base) => k.get(`${base}/${id}/deliveries`)],
      ['rotate', (k, base) => k.post(`${base}/${id}/rotate_secret`)],
    ];
    for (const key of [readOnly, ordersOnly]) {
      for (const [name, call] of calls) {
        const [viaFlat, viaPrefixed] = [await call(key, flat), await call(key, prefixed)];
        expect({ name, status: viaFlat.status }).toEqual({ name, status: viaPrefixed.status });
      }
    }
    expectError(await ordersOnly.get(flat), 403, 'insufficient_scope', { required: 'webhooks:read' });
    expectError(await readOnly.post(`${flat}/${id}/rotate_secret`), 403, 'insufficient_scope', {
      required: 'webhooks:write',
    });
    // Another entity's key sees its own endpoints only: the id is 404 through the flat form.
    const other = api(app, app.seed.entities.secondary.keys.live);
    expectError(await other.get(`${flat}/${id}`), 404, 'not_found');
    expectError(await other.get(`${prefixed}/${id}`), 403, 'entity_isolation_violation');
  });
});
