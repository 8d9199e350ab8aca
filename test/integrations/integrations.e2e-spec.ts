import { expectEvent } from '../support/expect-event';
import { Writable } from 'node:stream';
import { CatalogWorkerModule } from '#contexts/catalog';
import { trialBalance } from '../accounting/support/accounting-fixtures';
import { waitFor } from '../support/eventually';
import { api, expectError } from '../support/http';
import { journalEntriesOf } from '../support/journal';
import { listAll } from '../support/list-all';
import { outbox } from '../support/outbox';
import { startTestApp, TestApp } from '../support/test-app';
import {
  ContractServer,
  SHOPIFY_TOKENS,
  startShopifyContractServer,
} from './support/shopify-contract-server';

/** A resource as a route answers it. */
interface Resource {
  id: string;
  [field: string]: unknown;
}

const SANDBOX_KEY = 'sandbox_plaintext_secret_9f3k';

describe('integrations', () => {
  let app: TestApp;
  let shop: ContractServer;
  let live: ReturnType<typeof api>;
  const logLines: string[] = [];
  let seq = 0;

  const connect = async (body: Record<string, unknown>, client = live) =>
    (await client.post('/v1/integrations').send(body).expect(201)).body as Resource;
  const shopify = (token: string, url = shop.url) =>
    connect({
      type: 'storefront',
      name: `Shopify ${++seq}`,
      credentials: { access_token: token },
      settings: { adapter: 'shopify', shop_url: url },
    });
  const newListing = async (body: Record<string, unknown>, client = live) => {
    const product = (
      await client
        .post('/v1/products')
        .send({ sku: `INT-${Date.now().toString(36)}-${++seq}`, name: 'Synced thing', list_price: 12 })
        .expect(201)
    ).body;
    return (
      await client
        .post('/v1/channel_listings')
        .send({ product_id: product.id, channel: 'storefront', ...body })
        .expect(201)
    ).body as Resource;
  };

  beforeAll(async () => {
    shop = await startShopifyContractServer();
    const sink = new Writable({
      write(chunk, _encoding, done) {
        logLines.push(String(chunk));
        done();
      },
    });
    // The catalog worker (listing pushes) runs in-process; three quick attempts per push.
    app = await startTestApp(
      { LOG_LEVEL: 'info', LISTING_SYNC_ATTEMPTS: 3, LISTING_SYNC_BACKOFF_MS: 10 },
      { extraModules: [CatalogWorkerModule], logDestination: sink },
    );
    live = api(app, app.seed.entities.primary.keys.live);
  }, 180_000);
  afterAll(async () => {
    await app?.close();
    await shop.close();
  });

  it('lists the connector types with their capabilities and settings', async () => {
    const res = await api(app, app.seed.entities.primary.keys.read_only)
      .get('/v1/integrations/connectors')
      .expect(200);
    expect(res.body.data.map((c: { type: string }) => c.type)).toEqual([
      'storefront',
      'marketplace1',
      'marketplace2',
    ]);
    expect(res.body.data[0]).toMatchObject({
      capabilities: ['listing_sync', 'order_import', 'payout_import'],
      adapters: ['sandbox', 'shopify'],
      source_types: { order_import: 'STOREFRONT_IMPORT', payout_import: 'STOREFRONT_PAYOUT' },
    });
    expect(res.body.data[1].capabilities).toEqual(['order_import', 'payout_import']);
  });

  it('connects, reads, updates and disconnects with write-only credentials', async () => {
    const created = await connect({
      type: 'marketplace2',
      name: 'Second market',
      credentials: { api_key: SANDBOX_KEY },
      settings: { import_order_statuses: ['paid', 'authorized'] },
    });
    expect(created).toMatchObject({
      object: 'integration',
      type: 'marketplace2',
      status: 'connected',
      credentials_set: true,
      credentials_hint: '••••9f3k',
      settings: {
        adapter: 'sandbox',
        price_source: 'listing',
        import_order_statuses: ['paid', 'authorized'],
      },
      livemode: true,
    });
    expect(JSON.stringify(created)).not.toContain(SANDBOX_KEY);
    // Only the sealed value is stored (read by SQL: no route shows the stored column).
    const stored = await app.db.query<{ credentials: string }>(
      'SELECT credentials FROM integrations WHERE id = $1',
      [created.id],
    );
    expect(stored.rows[0].credentials).toMatch(/^enc:v1:/);
    expect(stored.rows[0].credentials).not.toContain(SANDBOX_KEY);

    const read = await live.get(`/v1/integrations/${created.id}`).expect(200);
    expect(read.body).toEqual(created);
    const etag = read.headers.etag as string;
    expect(etag).toBeTruthy();
    expectError(
      await live.patch(`/v1/integrations/${created.id}`).set('If-Match', '"stale"').send({ name: 'x' }),
      412,
      'precondition_failed',
    );
    const updated = await live
      .patch(`/v1/integrations/${created.id}`)
      .set('If-Match', etag)
      .send({ name: 'Renamed market', credentials: { api_key: 'another_secret_value_7777' } })
      .expect(200);
    expect(updated.body).toMatchObject({ name: 'Renamed market', credentials_hint: '••••7777' });
    const listed = await listAll(live, '/v1/integrations?type=marketplace2');
    expect(listed.map((i) => i.id)).toContain(created.id);

    const gone = await live.delete(`/v1/integrations/${created.id}`).expect(200);
    expect(gone.body).toMatchObject({
      status: 'disconnected',
      credentials_set: false,
      credentials_hint: null,
    });
    expect((await live.get(`/v1/integrations/${created.id}`).expect(200)).body.status).toBe('disconnected');
    expectError(await live.post(`/v1/integrations/${created.id}/test`), 409, 'invalid_state');
    const erased = await app.db.query('SELECT credentials FROM integrations WHERE id = $1', [created.id]);
    expect(erased.rows[0].credentials).toBeNull();
  });

  it('replays a create with the same Idempotency-Key and validates settings', async () => {
    const body = { type: 'storefront', name: 'Idempotent shop', credentials: { api_key: 'k' } };
    const key = `int-${Date.now()}`;
    const first = await live.post('/v1/integrations').set('Idempotency-Key', key).send(body);
    const again = await live.post('/v1/integrations').set('Idempotency-Key', key).send(body);
    expect(first.status).toBe(201);
    expect(again.body.id).toBe(first.body.id);
    expect(again.headers['idempotent-replayed']).toBe('true');
    await live.delete(`/v1/integrations/${first.body.id}`).expect(200);
    expectError(
      await live
        .post('/v1/integrations')
        .send({ type: 'marketplace1', name: 'x', settings: { adapter: 'shopify' } }),
      400,
      'parameter_invalid',
      { param: 'settings.adapter' },
    );
    expectError(
      await live
        .post('/v1/integrations')
        .send({ type: 'storefront', name: 'x', settings: { adapter: 'shopify', shop_url: shop.url } }),
      400,
      'parameter_missing',
      { param: 'credentials.access_token' },
    );
  });

  it('guards every route with the integrations scopes', async () => {
    const readOnly = api(app, app.seed.entities.primary.keys.read_only);
    const ordersOnly = api(app, app.seed.entities.primary.keys.orders_only);
    const id = (app.seed.fixtures as Record<string, string>).integration_id;
    await readOnly.get('/v1/integrations').expect(200);
    await readOnly.get(`/v1/integrations/${id}`).expect(200);
    await readOnly.get(`/v1/integrations/${id}/runs`).expect(200);
    const writes = [
      readOnly.post('/v1/integrations').send({ type: 'storefront', name: 'no' }),
      readOnly.patch(`/v1/integrations/${id}`).send({ name: 'no' }),
      readOnly.delete(`/v1/integrations/${id}`),
      readOnly.post(`/v1/integrations/${id}/test`),
      readOnly.post(`/v1/integrations/${id}/import-orders`),
    ];
    for (const res of await Promise.all(writes))
      expectError(res, 403, 'insufficient_scope', { required: 'integrations:write' });
    for (const path of [
      '/v1/integrations',
      '/v1/integrations/connectors',
      `/v1/integrations/${id}`,
      `/v1/integrations/${id}/runs`,
    ])
      expectError(await ordersOnly.get(path), 403, 'insufficient_scope', { required: 'integrations:read' });
    expectError(await ordersOnly.post(`/v1/integrations/${id}/test`), 403, 'insufficient_scope', {
      required: 'integrations:write',
    });
  });

  it('keeps integrations apart by entity and mode', async () => {
    const id = (app.seed.fixtures as Record<string, string>).integration_id;
    const test = api(app, app.seed.entities.primary.keys.test);
    const other = api(app, app.seed.entities.secondary.keys.live);
    expectError(await test.get(`/v1/integrations/${id}`), 404, 'not_found');
    expectError(await other.get(`/v1/integrations/${id}`), 404, 'not_found');
    expectError(await other.post(`/v1/integrations/${id}/test`), 404, 'not_found');
    expect((await listAll(test, '/v1/integrations')).map((i) => i.id)).not.toContain(id);
    expect((await listAll(other, '/v1/integrations')).map((i) => i.id)).not.toContain(id);
  });

  it('tests Shopify credentials against the contract server: ok and each typed failure', async () => {
    const ok = await shopify(SHOPIFY_TOKENS.valid);
    expect((await live.post(`/v1/integrations/${ok.id}/test`).expect(200)).body).toEqual({
      object: 'integration_test',
      integration_id: ok.id,
      ok: true,
      adapter: 'shopify',
      shop: 'Contract Shop',
    });
    expect(shop.requests.at(-1)).toEqual({
      method: 'GET',
      path: '/admin/api/2025-07/shop.json',
      token: SHOPIFY_TOKENS.valid,
    });
    const revoked = await shopify(SHOPIFY_TOKENS.revoked);
    expectError(await live.post(`/v1/integrations/${revoked.id}/test`), 422, 'connector_auth_failed');
    const throttled = await shopify(SHOPIFY_TOKENS.throttled);
    expectError(await live.post(`/v1/integrations/${throttled.id}/test`), 503, 'connector_rate_limited', {
      retry_after: 2,
    });
    const broken = await shopify(SHOPIFY_TOKENS.broken);
    expectError(await live.post(`/v1/integrations/${broken.id}/test`), 503, 'connector_unreachable');
    // Nothing listens on port 9 of this machine.
    const nowhere = await shopify(SHOPIFY_TOKENS.valid, 'http://127.0.0.1:9');
    expectError(await live.post(`/v1/integrations/${nowhere.id}/test`), 503, 'connector_unreachable');
    // The sandbox fails the same ways, by its documented keys.
    const sandbox = await connect({
      type: 'marketplace1',
      name: 'sb',
      credentials: { api_key: 'sandbox_auth_fail' },
    });
    expectError(await live.post(`/v1/integrations/${sandbox.id}/test`), 422, 'connector_auth_failed');
    for (const i of [ok, revoked, throttled, broken, nowhere, sandbox])
      await live.delete(`/v1/integrations/${i.id}`).expect(200);
  });

  it('pushes a listing through Shopify and records it synced with the remote id', async () => {
    const integration = await shopify(SHOPIFY_TOKENS.valid);
    const listing = await newListing({ integration_id: integration.id, price: 14.5 });
    expect(listing.integration_id).toBe(integration.id);
    expect((await live.post(`/v1/channel_listings/${listing.id}/sync`).expect(202)).body).toEqual({
      status: 'queued',
      listing_id: listing.id,
    });
    const synced = await waitFor(async () => {
      const body = (await live.get(`/v1/channel_listings/${listing.id}`).expect(200)).body;
      return body.sync_status === 'synced' && body;
    });
    expect(synced).toMatchObject({ remote_id: '632910392', sync_attempts: 1, last_sync_error: null });
    const runs = await listAll(live, `/v1/integrations/${integration.id}/runs`);
    expect(runs).toEqual([
      expect.objectContaining({
        kind: 'listing_sync',
        status: 'succeeded',
        counts: expect.objectContaining({ listings_synced: 1 }),
      }),
    ]);
    await live.delete(`/v1/integrations/${integration.id}`).expect(200);
  });

  it('marks a listing failed after its last retry and emits product.listing.sync_failed once', async () => {
    const integration = await connect({
      type: 'storefront',
      name: 'Rejecting sandbox',
      credentials: { api_key: SANDBOX_KEY },
    });
    const listing = await newListing({ integration_id: integration.id, remote_id: 'sandbox-reject-42' });
    await live.post(`/v1/channel_listings/${listing.id}/sync`).expect(202);
    const failed = await waitFor(async () => {
      const body = (await live.get(`/v1/channel_listings/${listing.id}`).expect(200)).body;
      return body.sync_status === 'failed' && body;
    });
    expect(failed).toMatchObject({ sync_attempts: 3, last_synced_at: null });
    expect(failed.last_sync_error).toMatch(/^rejected: The sandbox rejects/);
    const events = await outbox(app).typesOf(listing.id);
    expect(events.filter((t) => t === 'product.listing.sync_failed')).toEqual([
      'product.listing.sync_failed',
    ]);
    expect(events).not.toContain('product.listing.synced');
    const [event] = (await outbox(app).eventsOf(listing.id)).filter(
      (e) => e.type === 'product.listing.sync_failed',
    );
    expect(event.data.object).toMatchObject({
      id: listing.id,
      object: 'channel_listing',
      sync_status: 'failed',
    });
    await expectEvent(app, 'product.listing.sync_failed', {
      id: listing.id,
      sync_status: 'failed',
      sync_attempts: 3,
    });
    const runs = await listAll(live, `/v1/integrations/${integration.id}/runs`);
    expect(runs.map((r) => r.status)).toEqual(['failed', 'failed', 'failed']);
    await live.delete(`/v1/integrations/${integration.id}`).expect(200);
  });

  it('answers 409 integration_not_connected for a listing without a connected integration', async () => {
    const test = api(app, app.seed.entities.primary.keys.test);
    const orphan = await newListing({}, test);
    expect(orphan.integration_id).toBeNull();
    expectError(await test.post(`/v1/channel_listings/${orphan.id}/sync`), 409, 'integration_not_connected');
    // Disconnecting detaches the listings, which keep their history.
    const integration = await connect(
      { type: 'storefront', name: 'Short-lived', credentials: { api_key: SANDBOX_KEY } },
      test,
    );
    expect((await test.get(`/v1/channel_listings/${orphan.id}`).expect(200)).body.integration_id).toBe(
      integration.id,
    );
    await test.delete(`/v1/integrations/${integration.id}`).expect(200);
    const detached = (await test.get(`/v1/channel_listings/${orphan.id}`).expect(200)).body;
    expect(detached).toMatchObject({ integration_id: null, sync_status: 'never_synced' });
    expectError(await test.post(`/v1/channel_listings/${orphan.id}/sync`), 409, 'integration_not_connected');
    expectError(
      await test.patch(`/v1/channel_listings/${orphan.id}`).send({ integration_id: integration.id }),
      400,
      'parameter_invalid',
      { param: 'integration_id' },
    );
  });

  it('imports sandbox orders and payouts once each, balanced, with activity entries', async () => {
    const fees = (
      await live
        .post('/v1/accounting/ledger-accounts')
        .send({ code: '6900', name: 'Channel fees', type: 'expense' })
        .expect(201)
    ).body;
    const integration = await connect({
      type: 'storefront',
      name: 'Sandbox shop',
      credentials: { api_key: SANDBOX_KEY },
      settings: { fee_account_id: fees.id },
    });
    const first = (await live.post(`/v1/integrations/${integration.id}/import-orders`).expect(200)).body;
    expect(first).toMatchObject({
      object: 'integration_run',
      kind: 'order_import',
      trigger: 'manual',
      status: 'succeeded',
      counts: {
        orders_imported: 1,
        orders_skipped: 1,
        payouts_imported: 1,
        payouts_skipped: 0,
        listings_synced: 0,
      },
      errors: [],
    });
    const again = (await live.post(`/v1/integrations/${integration.id}/import-orders`).expect(200)).body;
    expect(again.counts).toMatchObject({
      orders_imported: 0,
      orders_skipped: 2,
      payouts_imported: 0,
      payouts_skipped: 1,
    });

    const orders = (await listAll(live, '/v1/orders')).filter(
      (o) => (o.metadata as Record<string, string>)?.integration_id === integration.id,
    );
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({ total: 55, metadata: { external_order_id: 'SB-1001' } });
    const [entry] = await journalEntriesOf(app, ['STOREFRONT_IMPORT'], [orders[0].id]);
    expect(entry).toMatchObject({ total_debit: 55, total_credit: 55 });
    expect(await journalEntriesOf(app, ['STOREFRONT_IMPORT'], [orders[0].id])).toHaveLength(1);

    const payouts = (
      await listAll<{ id: string; description: string }>(
        live,
        '/v1/journal-entries?source_type=STOREFRONT_PAYOUT',
      )
    ).filter((e) => e.description === 'Sandbox shop payout SB-PO-1');
    expect(payouts).toHaveLength(1);
    const payout = (await live.get(`/v1/journal-entries/${payouts[0].id}`).expect(200)).body;
    expect(payout).toMatchObject({ total_debit: 55, total_credit: 55 });
    const feeLines = payout.lines.filter((l: { account_id: string }) => l.account_id === fees.id);
    expect(feeLines).toEqual([expect.objectContaining({ debit_amount: 1.9, credit_amount: 0 })]);
    expect(
      payout.lines.map((l: { debit_amount: number; credit_amount: number }) => [
        l.debit_amount,
        l.credit_amount,
      ]),
    ).toEqual(
      expect.arrayContaining([
        [53.1, 0],
        [0, 55],
      ]),
    );
    expect(await trialBalance(app, app.seed.entities.primary.id)).toBe('0.0000');

    const activity = (
      await live.get(`/v1/activity?resource_type=order&resource_id=${orders[0].id}`).expect(200)
    ).body;
    expect(activity.data).toEqual([
      expect.objectContaining({
        method: 'POST',
        path: `/v1/integrations/${integration.id}/import-orders`,
        status: 201,
      }),
    ]);
    const runs = await listAll(live, `/v1/integrations/${integration.id}/runs`);
    expect(runs.map((r) => r.kind)).toEqual(['order_import', 'order_import']);
    expect(await outbox(app).typesOf(orders[0].id)).toContain('order.created');
  });

  it('imports Shopify orders page by page through the Link header', async () => {
    const integration = await shopify(SHOPIFY_TOKENS.valid);
    await live
      .patch(`/v1/integrations/${integration.id}`)
      .send({ settings: { import_order_statuses: ['paid'] } })
      .expect(200);
    const run = (await live.post(`/v1/integrations/${integration.id}/import-orders`).expect(200)).body;
    // The payout has fees and this integration names no fee account: listed as an error, the run goes on.
    expect(run).toMatchObject({
      status: 'succeeded',
      counts: { orders_imported: 2, orders_skipped: 1, payouts_imported: 0, payouts_skipped: 1 },
      errors: [expect.objectContaining({ external_id: '623721858', code: 'import_failed' })],
    });
    const pages = shop.requests.filter((r) => r.path === '/admin/api/2025-07/orders.json');
    expect(pages.length).toBeGreaterThanOrEqual(3);
    const orders = (await listAll(live, '/v1/orders')).filter(
      (o) => (o.metadata as Record<string, string>)?.integration_id === integration.id,
    );
    expect(orders.map((o) => (o.metadata as Record<string, string>).external_order_id).sort()).toEqual([
      '450789469',
      '450789470',
    ]);
    expect(new Set(orders.map((o) => o.account_id)).size).toBe(1);
    expect(await trialBalance(app, app.seed.entities.primary.id)).toBe('0.0000');
  });

  it('the seed’s storefront listing belongs to the seed’s sandbox integration', async () => {
    const { integration_id: integrationId, storefront_listing_id: listingId } = app.seed.fixtures as Record<
      string,
      string
    >;
    expect((await live.get(`/v1/integrations/${integrationId}`).expect(200)).body).toMatchObject({
      type: 'storefront',
      status: 'connected',
      settings: { adapter: 'sandbox' },
    });
    expect((await live.get(`/v1/channel_listings/${listingId}`).expect(200)).body.integration_id).toBe(
      integrationId,
    );
  });

  it('never writes a credential to a response, an event or a log line', async () => {
    // The test makes its own log lines and events: every path that handles a credential, with
    // each secret checked below, from the lines logged from here on.
    const from = logLines.length;
    const answers: string[] = [];
    const sandbox = await connect({
      type: 'storefront',
      name: 'Credential check shop',
      credentials: { api_key: SANDBOX_KEY },
    });
    answers.push(JSON.stringify(sandbox));
    const patched = await live
      .patch(`/v1/integrations/${sandbox.id}`)
      .send({ credentials: { api_key: 'another_secret_value_7777' } })
      .expect(200);
    answers.push(JSON.stringify(patched.body));
    answers.push(JSON.stringify((await live.post(`/v1/integrations/${sandbox.id}/test`).expect(200)).body));
    const run = await live.post(`/v1/integrations/${sandbox.id}/import-orders`).expect(200);
    answers.push(JSON.stringify(run.body));
    // Each Shopify token, on the success and the failure paths of the credential test.
    for (const token of Object.values(SHOPIFY_TOKENS)) {
      const integration = await shopify(token);
      answers.push(JSON.stringify(integration));
      const tested = await live.post(`/v1/integrations/${integration.id}/test`);
      expect([200, 422, 503]).toContain(tested.status);
      answers.push(JSON.stringify(tested.body));
      answers.push(
        JSON.stringify((await live.delete(`/v1/integrations/${integration.id}`).expect(200)).body),
      );
    }
    answers.push(JSON.stringify((await live.delete(`/v1/integrations/${sandbox.id}`).expect(200)).body));

    const events = JSON.stringify(await outbox(app).all());
    const logs = logLines.slice(from).join('\n');
    // What was logged includes this test's own requests.
    expect(logs).toContain(`/v1/integrations/${sandbox.id}/import-orders`);
    expect(events).toContain(sandbox.id);
    for (const secret of [SANDBOX_KEY, 'another_secret_value_7777', ...Object.values(SHOPIFY_TOKENS)]) {
      expect(answers.join('\n')).not.toContain(secret);
      expect(events).not.toContain(secret);
      expect(logs).not.toContain(secret);
    }
  });
});
