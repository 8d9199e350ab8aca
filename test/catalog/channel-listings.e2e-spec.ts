import { expectEvent } from '../support/expect-event';
import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { CatalogWorkerModule, ChannelListingSyncProcessor } from '#contexts/catalog';
import { QUEUE_NAMES } from '#platform/queue/queues';
import { drained } from '../support/dispatcher';
import { waitFor } from '../support/eventually';
import { api, expectError } from '../support/http';
import { outbox } from '../support/outbox';
import { startTestApp, TestApp } from '../support/test-app';

describe('channel listings', () => {
  let app: TestApp;
  let live: ReturnType<typeof api>;
  let seq = 0;
  const newProduct = async (client = live) =>
    (
      await client
        .post('/v1/products')
        .send({ sku: `CL-${Date.now().toString(36)}-${++seq}`, name: 'Listed', list_price: 20 })
        .expect(201)
    ).body as {
      id: string;
    };
  const eventTypes = (id: string) => outbox(app).typesOf(id);
  const catalogQueue = () => app.get<Queue>(getQueueToken(QUEUE_NAMES.catalog) as never);
  const jobCount = async () => {
    const counts = await catalogQueue().getJobCounts(
      'waiting',
      'active',
      'completed',
      'failed',
      'delayed',
      'prioritized',
    );
    return Object.values(counts).reduce((a, b) => a + b, 0);
  };

  beforeAll(async () => {
    // The dispatcher's catalog worker runs in-process, as it does next to the API in `npm start`.
    app = await startTestApp({}, { extraModules: [CatalogWorkerModule] });
    live = api(app, app.seed.entities.primary.keys.live);
  });
  afterAll(() => app.close());

  it('creates, retrieves, updates, lists and deletes listings with events', async () => {
    const product = await newProduct();
    const created = await live
      .post('/v1/channel_listings')
      .send({
        product_id: product.id,
        channel: 'storefront',
        remote_id: 'sf-1',
        price: 19.99,
        metadata: { group: 'a' },
      })
      .expect(201);
    expect(created.body).toMatchObject({
      object: 'channel_listing',
      product_id: product.id,
      channel: 'storefront',
      remote_id: 'sf-1',
      price: 19.99,
      currency: 'USD',
      status: 'active',
      sync_status: 'never_synced',
      sync_attempts: 0,
      last_synced_at: null,
      metadata: { group: 'a' },
      livemode: true,
    });
    const id = created.body.id as string;
    expect((await live.get(`/v1/channel_listings/${id}`).expect(200)).body).toEqual(created.body);
    const expanded = await live.get(`/v1/channel_listings/${id}?expand[]=product`).expect(200);
    expect(expanded.body.product).toMatchObject({ id: product.id, object: 'product' });

    const updated = await live
      .patch(`/v1/channel_listings/${id}`)
      .send({ price: null, status: 'inactive', remote_id: 'sf-2' })
      .expect(200);
    expect(updated.body).toMatchObject({ price: null, status: 'inactive', remote_id: 'sf-2' });

    const mp = (
      await live
        .post('/v1/channel_listings')
        .send({ product_id: product.id, channel: 'marketplace2' })
        .expect(201)
    ).body;
    const byProduct = await live
      .get(`/v1/channel_listings?product_id=${product.id}&expand[]=product`)
      .expect(200);
    expect(byProduct.body).toMatchObject({ object: 'list', url: '/v1/channel_listings', has_more: false });
    expect(byProduct.body.data.map((l: { id: string }) => l.id)).toEqual([mp.id, id]);
    expect(byProduct.body.data.every((l: { product: { id: string } }) => l.product.id === product.id)).toBe(
      true,
    );
    const byChannel = await live
      .get(`/v1/channel_listings?product_id=${product.id}&channel=marketplace2`)
      .expect(200);
    expect(byChannel.body.data.map((l: { id: string }) => l.id)).toEqual([mp.id]);

    expectError(
      await live.post('/v1/channel_listings').send({ product_id: product.id, channel: 'storefront' }),
      409,
      'resource_conflict',
      {
        param: 'channel',
      },
    );
    expect((await live.delete(`/v1/channel_listings/${id}`).expect(200)).body).toEqual({
      id,
      object: 'channel_listing',
      deleted: true,
    });
    expectError(await live.get(`/v1/channel_listings/${id}`), 404, 'not_found');
    expect(await eventTypes(id)).toEqual([
      'product.listing.created',
      'product.listing.updated',
      'product.listing.deleted',
    ]);
    await expectEvent(app, 'product.listing.created', { id, product_id: product.id, channel: 'storefront' });
    await expectEvent(app, 'product.listing.updated', { id, product_id: product.id });
    await expectEvent(app, 'product.listing.deleted', { id, product_id: product.id });
  });

  it('queues a storefront sync (202) that the worker records on the listing', async () => {
    const product = await newProduct();
    const listing = (
      await live
        .post('/v1/channel_listings')
        .send({ product_id: product.id, channel: 'storefront' })
        .expect(201)
    ).body;
    const res = await live.post(`/v1/channel_listings/${listing.id}/sync`).expect(202);
    expect(res.body).toEqual({ status: 'queued', listing_id: listing.id });
    const synced = await waitFor(async () => {
      const body = (await live.get(`/v1/channel_listings/${listing.id}`).expect(200)).body;
      return body.sync_attempts === 1 ? body : undefined;
    });
    expect(synced).toMatchObject({
      sync_status: 'synced',
      sync_attempts: 1,
      last_synced_at: expect.any(String),
    });
    expect(await eventTypes(listing.id)).toEqual([
      'product.listing.created',
      'product.listing.sync_requested',
      'product.listing.synced',
    ]);
    await expectEvent(app, 'product.listing.sync_requested', { id: listing.id, product_id: product.id });
    await expectEvent(app, 'product.listing.synced', {
      id: listing.id,
      sync_status: 'synced',
      sync_attempts: 1,
    });
    await live.post(`/v1/channel_listings/${listing.id}/sync`).expect(202);
    await waitFor(async () =>
      (await live.get(`/v1/channel_listings/${listing.id}`)).body.sync_attempts === 2 ? true : undefined,
    );
  });

  it('replays a sync with the same Idempotency-Key without queueing a second job', async () => {
    const product = await newProduct();
    const listing = (
      await live
        .post('/v1/channel_listings')
        .send({ product_id: product.id, channel: 'storefront' })
        .expect(201)
    ).body;
    const before = await jobCount();
    const key = `sync-${listing.id}`;
    const first = await live
      .post(`/v1/channel_listings/${listing.id}/sync`)
      .set('Idempotency-Key', key)
      .expect(202);
    const replay = await live
      .post(`/v1/channel_listings/${listing.id}/sync`)
      .set('Idempotency-Key', key)
      .expect(202);
    expect(replay.body).toEqual(first.body);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    await waitFor(async () =>
      (await live.get(`/v1/channel_listings/${listing.id}`)).body.sync_attempts >= 1 ? true : undefined,
    );
    // Jobs are queued before the 202: once the queue is idle, a second job would have run.
    await waitFor(() => drained(catalogQueue()), { label: 'the catalog queue drained' });
    expect((await live.get(`/v1/channel_listings/${listing.id}`).expect(200)).body.sync_attempts).toBe(1);
    expect(await jobCount()).toBe(before + 1);
    expect((await eventTypes(listing.id)).filter((t) => t === 'product.listing.sync_requested')).toHaveLength(
      1,
    );
  });

  it('answers 501 connector_not_supported for marketplace listings, idempotently', async () => {
    const product = await newProduct();
    for (const channel of ['marketplace1', 'marketplace2']) {
      const listing = (
        await live.post('/v1/channel_listings').send({ product_id: product.id, channel }).expect(201)
      ).body;
      const before = await jobCount();
      const res = await live
        .post(`/v1/channel_listings/${listing.id}/sync`)
        .set('Idempotency-Key', `mp-${listing.id}`);
      expectError(res, 501, 'connector_not_supported', { type: 'not_implemented' });
      const replay = await live
        .post(`/v1/channel_listings/${listing.id}/sync`)
        .set('Idempotency-Key', `mp-${listing.id}`);
      expect(replay.status).toBe(501);
      expect(replay.body.code).toBe('connector_not_supported');
      expect(await jobCount()).toBe(before);
      expect((await live.get(`/v1/channel_listings/${listing.id}`).expect(200)).body).toMatchObject({
        sync_status: 'never_synced',
        sync_attempts: 0,
      });
    }
  });

  it('refuses a sync in the wrong state (409 invalid_state naming the status)', async () => {
    const product = await newProduct();
    const listing = (
      await live
        .post('/v1/channel_listings')
        .send({ product_id: product.id, channel: 'storefront', status: 'inactive' })
        .expect(201)
    ).body;
    expectError(await live.post(`/v1/channel_listings/${listing.id}/sync`), 409, 'invalid_state', {
      hint: expect.stringContaining('inactive'),
    });
    await live.patch(`/v1/channel_listings/${listing.id}`).send({ status: 'active' }).expect(200);
    await live.delete(`/v1/products/${product.id}`).expect(200);
    expectError(await live.post(`/v1/channel_listings/${listing.id}/sync`), 409, 'invalid_state', {
      hint: expect.stringContaining('archived'),
    });
    expectError(
      await live.post('/v1/channel_listings').send({ product_id: product.id, channel: 'marketplace1' }),
      409,
      'invalid_state',
      {
        hint: expect.stringContaining('archived'),
      },
    );
  });

  it('lets the processor be called directly and skips listings deleted since the request', async () => {
    const processor = app.get(ChannelListingSyncProcessor);
    const product = await newProduct();
    const listing = (
      await live
        .post('/v1/channel_listings')
        .send({ product_id: product.id, channel: 'storefront' })
        .expect(201)
    ).body;
    const data = {
      entity_id: app.seed.entities.primary.id,
      entity_code: app.seed.entities.primary.code,
      livemode: true,
      api_key_id: app.seed.entities.primary.id,
      listing_id: listing.id,
    };
    const result = await processor.process({ id: 'direct', name: 'sync-channel-listing', data } as never);
    expect(result).toEqual({ sync_attempts: 1, sync_status: 'synced' });
    await live.delete(`/v1/channel_listings/${listing.id}`).expect(200);
    expect(await processor.process({ id: 'late', name: 'sync-channel-listing', data } as never)).toEqual({
      sync_attempts: undefined,
    });
    // A job of the other mode does not see the live listing.
    const other = await live
      .post('/v1/channel_listings')
      .send({ product_id: product.id, channel: 'storefront' })
      .expect(201);
    expect(
      await processor.process({
        id: 'x',
        name: 'sync-channel-listing',
        data: { ...data, livemode: false, listing_id: other.body.id },
      } as never),
    ).toEqual({
      sync_attempts: undefined,
    });
  });

  it('validates bodies and queries', async () => {
    const product = await newProduct();
    const bad: [Record<string, unknown>, string, string][] = [
      [{ channel: 'storefront' }, 'parameter_missing', 'product_id'],
      [{ product_id: product.id }, 'parameter_missing', 'channel'],
      [{ product_id: product.id, channel: 'ebay' }, 'parameter_invalid', 'channel'],
      [{ product_id: 'x', channel: 'storefront' }, 'parameter_invalid', 'product_id'],
      [
        { product_id: '0190a0a0-0000-7000-8000-000000000000', channel: 'storefront' },
        'parameter_invalid',
        'product_id',
      ],
      [{ product_id: product.id, channel: 'storefront', price: -1 }, 'parameter_invalid', 'price'],
      [{ product_id: product.id, channel: 'storefront', price: 'free' }, 'parameter_invalid', 'price'],
      [{ product_id: product.id, channel: 'storefront', status: 'paused' }, 'parameter_invalid', 'status'],
      [
        { product_id: product.id, channel: 'storefront', currency: 'dollars' },
        'parameter_invalid',
        'currency',
      ],
      [
        { product_id: product.id, channel: 'storefront', remote_id: 'r'.repeat(256) },
        'parameter_invalid',
        'remote_id',
      ],
      [
        { product_id: product.id, channel: 'storefront', sync_attempts: 3 },
        'parameter_unknown',
        'sync_attempts',
      ],
      [
        { product_id: product.id, channel: 'storefront', last_synced_at: '2026-01-01T00:00:00Z' },
        'parameter_unknown',
        'last_synced_at',
      ],
    ];
    for (const [body, code, param] of bad)
      expectError(await live.post('/v1/channel_listings').send(body), 400, code, { param });
    const listing = (
      await live
        .post('/v1/channel_listings')
        .send({ product_id: product.id, channel: 'storefront' })
        .expect(201)
    ).body;
    expectError(
      await live.patch(`/v1/channel_listings/${listing.id}`).send({ price: -0.5 }),
      400,
      'parameter_invalid',
      { param: 'price' },
    );
    expectError(
      await live.patch(`/v1/channel_listings/${listing.id}`).send({ channel: 'marketplace1' }),
      400,
      'parameter_unknown',
      { param: 'channel' },
    );
    expectError(
      await live.post(`/v1/channel_listings/${listing.id}/sync`).send({ force: true }),
      400,
      'parameter_unknown',
      { param: 'force' },
    );
    expectError(await live.get('/v1/channel_listings?channel=ebay'), 400, 'parameter_invalid', {
      param: 'channel',
    });
    expectError(await live.get('/v1/channel_listings?product_id=1'), 400, 'parameter_invalid', {
      param: 'product_id',
    });
    expectError(await live.get('/v1/channel_listings?expand[]=category'), 400, 'invalid_expand', {
      param: 'expand[0]',
    });
    expectError(await live.post('/v1/channel_listings/not-a-uuid/sync'), 404, 'not_found');
  });

  it('isolates modes and entities (404)', async () => {
    const product = await newProduct();
    const listing = (
      await live
        .post('/v1/channel_listings')
        .send({ product_id: product.id, channel: 'storefront' })
        .expect(201)
    ).body;
    const test = api(app, app.seed.entities.primary.keys.test);
    const other = api(app, app.seed.entities.secondary.keys.live);
    for (const client of [test, other]) {
      expectError(await client.get(`/v1/channel_listings/${listing.id}`), 404, 'not_found');
      expectError(
        await client.patch(`/v1/channel_listings/${listing.id}`).send({ price: 1 }),
        404,
        'not_found',
      );
      expectError(await client.delete(`/v1/channel_listings/${listing.id}`), 404, 'not_found');
      expectError(await client.post(`/v1/channel_listings/${listing.id}/sync`), 404, 'not_found');
      expectError(
        await client.post('/v1/channel_listings').send({ product_id: product.id, channel: 'marketplace1' }),
        400,
        'parameter_invalid',
        {
          param: 'product_id',
        },
      );
    }
  });

  it('needs products:read / products:write', async () => {
    const readOnly = api(app, app.seed.entities.primary.keys.read_only);
    const ordersOnly = api(app, app.seed.entities.primary.keys.orders_only);
    await readOnly.get('/v1/channel_listings').expect(200);
    const { storefront_listing_id } = app.seed.fixtures as Record<string, string>;
    expectError(
      await readOnly.post(`/v1/channel_listings/${storefront_listing_id}/sync`),
      403,
      'insufficient_scope',
      { required: 'products:write' },
    );
    expectError(await ordersOnly.get('/v1/channel_listings'), 403, 'insufficient_scope', {
      required: 'products:read',
    });
  });

  it('seeds a storefront and a marketplace listing of the seeded product', async () => {
    const { product_id, storefront_listing_id, marketplace_listing_id } = app.seed.fixtures as Record<
      string,
      string
    >;
    expect((await live.get(`/v1/channel_listings/${storefront_listing_id}`).expect(200)).body).toMatchObject({
      channel: 'storefront',
      product_id,
    });
    const mp = (await live.get(`/v1/channel_listings/${marketplace_listing_id}`).expect(200)).body;
    expect(mp.product_id).toBe(product_id);
    expect(mp.channel).toMatch(/^marketplace[12]$/);
    await live.post(`/v1/channel_listings/${storefront_listing_id}/sync`).expect(202);
    expectError(
      await live.post(`/v1/channel_listings/${marketplace_listing_id}/sync`),
      501,
      'connector_not_supported',
    );
  });

  it('documents the catalog routes and shapes in the OpenAPI description', async () => {
    const doc = (await api(app).get('/v1/openapi.json').expect(200)).body;
    for (const path of [
      '/v1/products',
      '/v1/products/{id}',
      '/v1/products/{id}/restore',
      '/v1/products/{id}/tags',
      '/v1/products/{id}/tags/{tag_id}',
      '/v1/products/{product_id}/variants/{id}',
      '/v1/product_categories/{id}',
      '/v1/channel_listings',
      '/v1/channel_listings/{id}/sync',
    ]) {
      expect(doc.paths[path]).toBeDefined();
    }
    expect(Object.keys(doc.paths['/v1/channel_listings/{id}/sync'].post.responses)).toEqual(
      expect.arrayContaining(['202', '501']),
    );
    // Each list answers a named envelope component around its item schema.
    expect(doc.paths['/v1/products'].get.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/ProductList',
    });
    expect(doc.components.schemas.ProductList.properties.data.items).toEqual({
      $ref: '#/components/schemas/ProductResponse',
    });
    const product = doc.components.schemas.ProductResponse.properties;
    expect(product.type.enum).toEqual(['standard', 'kit', 'service', 'box']);
    expect(product.demand_avg_per_day.readOnly).toBe(true);
    expect(doc.components.schemas.CreateProductDto.required).toEqual(expect.arrayContaining(['sku', 'name']));
    expect(doc.components.schemas.ChannelListingResponse.properties.channel.enum).toEqual([
      'storefront',
      'marketplace1',
      'marketplace2',
    ]);
  });
});
