import { DataSource } from 'typeorm';
import { ResourceRegistry } from '#platform/http/expand/expand-registry';
import { ProductRepository } from '#contexts/catalog';
import { asEntity } from '../support/as-entity';
import { api, expectError } from '../support/http';
import { outbox } from '../support/outbox';
import { startTestApp, TestApp } from '../support/test-app';

describe('products', () => {
  let app: TestApp;
  let live: ReturnType<typeof api>;
  let test: ReturnType<typeof api>;
  let other: ReturnType<typeof api>;
  let seq = 0;
  const sku = (prefix = 'SKU') => `${prefix}-${Date.now().toString(36)}-${++seq}`;

  const eventsOf = (id: string) => outbox(app).eventsOf(id);

  beforeAll(async () => {
    app = await startTestApp();
    live = api(app, app.seed.entities.primary.keys.live);
    test = api(app, app.seed.entities.primary.keys.test);
    other = api(app, app.seed.entities.secondary.keys.live);
  });
  afterAll(() => app.close());

  it('creates a product with every field and serializes money as numbers', async () => {
    const category = (await live.post('/v1/product_categories').send({ name: 'Hardware' }).expect(201)).body;
    const body = {
      sku: sku('WID'),
      name: 'Widget',
      description: 'A sturdy widget.',
      type: 'kit',
      unit_of_measure: 'box',
      list_price: 25.1234,
      currency: 'EUR',
      cost_price: 10.5,
      weight: { value: 1.25, unit: 'kg' },
      dimensions: { length: 30, width: 20, height: 10.5, unit: 'cm' },
      freight_insurance: true,
      serial_tracked: true,
      category_id: category.id,
      metadata: { erp_ref: 'ITEM-1', drop: null },
      variants: [
        { sku: sku('VAR'), name: 'Red', options: { color: 'red' }, list_price: 26 },
        { sku: sku('VAR'), name: 'Blue', options: { color: 'blue' }, weight: { value: 1.3, unit: 'kg' } },
      ],
    };
    const res = await live.post('/v1/products').send(body).expect(201);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.body).toMatchObject({
      object: 'product',
      sku: body.sku,
      name: 'Widget',
      description: 'A sturdy widget.',
      type: 'kit',
      status: 'active',
      unit_of_measure: 'box',
      list_price: 25.1234,
      currency: 'EUR',
      cost_price: 10.5,
      weight: { value: 1.25, unit: 'kg' },
      dimensions: { length: 30, width: 20, height: 10.5, unit: 'cm' },
      freight_insurance: true,
      serial_tracked: true,
      demand_avg_per_day: 0,
      category_id: category.id,
      tag_ids: [],
      metadata: { erp_ref: 'ITEM-1' },
      livemode: true,
      archived_at: null,
    });
    expect(res.body.variants).toHaveLength(2);
    expect(res.body.variants[0]).toMatchObject({
      object: 'product_variant',
      product_id: res.body.id,
      name: 'Red',
      options: { color: 'red' },
      list_price: 26,
      cost_price: null,
      weight: null,
    });
    expect(res.body.variants[1]).toMatchObject({
      name: 'Blue',
      list_price: null,
      weight: { value: 1.3, unit: 'kg' },
    });
    // The exact stored decimal (numeric(19,4)), as the product repository reads it: the API answers JSON numbers.
    const stored = (await asEntity(app, () => app.get(ProductRepository).findById(res.body.id)))!;
    expect({ list_price: stored.listPrice.toFixed(4), cost_price: stored.costPrice?.toFixed(4) }).toEqual({
      list_price: '25.1234',
      cost_price: '10.5000',
    });

    const got = await live.get(`/v1/products/${res.body.id}`).expect(200);
    expect(got.body).toEqual(res.body);
    expect(got.headers.etag).toMatch(/^W\//);
    expect((await eventsOf(res.body.id)).map((e) => e.type)).toEqual(['product.created']);
  });

  it('takes a currency code in any case and stores it upper-case', async () => {
    const res = await live
      .post('/v1/products')
      .send({ sku: sku(), name: 'Euro', currency: 'eUr' })
      .expect(201);
    expect(res.body.currency).toBe('EUR');
    expect((await live.get(`/v1/products/${res.body.id}`).expect(200)).body.currency).toBe('EUR');
  });

  it('applies defaults: standard type, unit ea, price 0, the entity currency', async () => {
    const res = await live.post('/v1/products').send({ sku: sku(), name: 'Plain' }).expect(201);
    expect(res.body).toMatchObject({
      type: 'standard',
      unit_of_measure: 'ea',
      list_price: 0,
      currency: 'USD',
      cost_price: null,
      weight: null,
      dimensions: null,
      freight_insurance: false,
      serial_tracked: false,
      category_id: null,
      variants: [],
      metadata: {},
    });
  });

  it('keeps SKUs unique per entity and mode, across products and variants', async () => {
    const shared = sku('DUP');
    await live.post('/v1/products').send({ sku: shared, name: 'First' }).expect(201);
    expectError(await live.post('/v1/products').send({ sku: shared, name: 'Again' }), 409, 'duplicate_sku', {
      param: 'sku',
      type: 'conflict',
    });
    // The same SKU is free in test mode and in another entity.
    await test.post('/v1/products').send({ sku: shared, name: 'Test mode' }).expect(201);
    await other.post('/v1/products').send({ sku: shared, name: 'Other entity' }).expect(201);
    // Variants share the namespace.
    expectError(
      await live.post('/v1/products').send({ sku: sku(), name: 'x', variants: [{ sku: shared, name: 'v' }] }),
      409,
      'duplicate_sku',
      { param: 'variants[0].sku' },
    );
    const dupInBody = sku('SAME');
    expectError(
      await live.post('/v1/products').send({
        sku: sku(),
        name: 'x',
        variants: [
          { sku: dupInBody, name: 'a' },
          { sku: dupInBody, name: 'b' },
        ],
      }),
      409,
      'duplicate_sku',
      { param: 'variants[1].sku' },
    );
    const p = (await live.post('/v1/products').send({ sku: sku(), name: 'p' }).expect(201)).body;
    expectError(
      await live.post(`/v1/products/${p.id}/variants`).send({ sku: shared, name: 'v' }),
      409,
      'duplicate_sku',
      { param: 'sku' },
    );
    expectError(await live.patch(`/v1/products/${p.id}`).send({ sku: shared }), 409, 'duplicate_sku', {
      param: 'sku',
    });
    // Re-sending its own SKU is not a conflict.
    await live.patch(`/v1/products/${p.id}`).send({ sku: p.sku, name: 'renamed' }).expect(200);
    // An archived product keeps its SKU.
    await live.delete(`/v1/products/${p.id}`).expect(200);
    expectError(await live.post('/v1/products').send({ sku: p.sku, name: 'reuse' }), 409, 'duplicate_sku', {
      param: 'sku',
    });
  });

  it('lets only one of two concurrent creates take a SKU', async () => {
    const contested = sku('RACE');
    const results = await Promise.all(
      [1, 2, 3].map((n) => live.post('/v1/products').send({ sku: contested, name: `racer ${n}` })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
  });

  it('updates a product with previous_attributes, merges metadata and clears nullable fields', async () => {
    const p = (
      await live
        .post('/v1/products')
        .send({
          sku: sku(),
          name: 'Before',
          cost_price: 3,
          weight: { value: 2, unit: 'lb' },
          metadata: { a: '1', b: '2' },
        })
        .expect(201)
    ).body;
    const res = await live
      .patch(`/v1/products/${p.id}`)
      .send({
        name: 'After',
        list_price: 12.5,
        cost_price: null,
        weight: null,
        metadata: { a: '', c: '3' },
        freight_insurance: true,
      })
      .expect(200);
    expect(res.body).toMatchObject({
      name: 'After',
      list_price: 12.5,
      cost_price: null,
      weight: null,
      metadata: { b: '2', c: '3' },
      freight_insurance: true,
    });
    const events = await eventsOf(p.id);
    expect(events.map((e) => e.type)).toEqual(['product.created', 'product.updated']);
    expect(events[1].data.previous_attributes).toEqual({
      name: 'Before',
      list_price: 0,
      cost_price: 3,
      weight: { value: 2, unit: 'lb' },
      metadata: { a: '1', b: '2' },
      freight_insurance: false,
    });
    // A no-op update sends no event.
    await live.patch(`/v1/products/${p.id}`).send({ name: 'After' }).expect(200);
    expect(await eventsOf(p.id)).toHaveLength(2);
  });

  it('archives with DELETE and restores, refusing actions in the wrong state', async () => {
    const p = (await live.post('/v1/products').send({ sku: sku(), name: 'Archivable' }).expect(201)).body;
    expectError(await live.post(`/v1/products/${p.id}/restore`), 409, 'invalid_state', {
      type: 'conflict',
      hint: expect.stringContaining('active'),
    });
    const deleted = await live.delete(`/v1/products/${p.id}`).expect(200);
    expect(deleted.body).toEqual({ id: p.id, object: 'product', deleted: true });
    const archived = (await live.get(`/v1/products/${p.id}`).expect(200)).body;
    expect(archived.status).toBe('archived');
    expect(archived.archived_at).toEqual(expect.any(String));
    expectError(await live.delete(`/v1/products/${p.id}`), 409, 'invalid_state', {
      hint: expect.stringContaining('archived'),
    });
    expectError(await live.patch(`/v1/products/${p.id}`).send({ name: 'x' }), 409, 'invalid_state', {
      hint: expect.stringContaining('archived'),
    });
    expectError(
      await live.post(`/v1/products/${p.id}/variants`).send({ sku: sku(), name: 'v' }),
      409,
      'invalid_state',
    );
    expectError(
      await live.post(`/v1/products/${p.id}/restore`).send({ now: true }),
      400,
      'parameter_unknown',
      { param: 'now' },
    );
    const restored = await live.post(`/v1/products/${p.id}/restore`).expect(200);
    expect(restored.body).toMatchObject({ id: p.id, status: 'active', archived_at: null });
    expect((await eventsOf(p.id)).map((e) => e.type)).toEqual([
      'product.created',
      'product.deleted',
      'product.restored',
    ]);
  });

  it('manages variants as a sub-resource with their own events', async () => {
    const p = (await live.post('/v1/products').send({ sku: sku(), name: 'Shirt' }).expect(201)).body;
    const v = (
      await live
        .post(`/v1/products/${p.id}/variants`)
        .send({ sku: sku('SH'), name: 'L', options: { size: 'L' }, cost_price: 4 })
        .expect(201)
    ).body;
    expect(v).toMatchObject({
      object: 'product_variant',
      product_id: p.id,
      options: { size: 'L' },
      cost_price: 4,
    });
    const list = await live.get(`/v1/products/${p.id}/variants`).expect(200);
    expect(list.body).toMatchObject({
      object: 'list',
      has_more: false,
      url: `/v1/products/${p.id}/variants`,
    });
    expect(list.body.data.map((x: { id: string }) => x.id)).toEqual([v.id]);
    expect((await live.get(`/v1/products/${p.id}/variants/${v.id}`).expect(200)).body).toEqual(v);
    const withProduct = await live.get(`/v1/products/${p.id}/variants/${v.id}?expand[]=product`).expect(200);
    expect(withProduct.body.product).toMatchObject({ id: p.id, object: 'product' });
    expectError(await live.get(`/v1/products/${p.id}/variants?expand[]=category`), 400, 'invalid_expand');
    const variantEtag = (await live.get(`/v1/products/${p.id}/variants/${v.id}`).expect(200)).headers.etag;
    await live
      .patch(`/v1/products/${p.id}/variants/${v.id}`)
      .set('If-Match', variantEtag)
      .send({ cost_price: 5 })
      .expect(200);
    expectError(
      await live
        .patch(`/v1/products/${p.id}/variants/${v.id}`)
        .set('If-Match', variantEtag)
        .send({ cost_price: 6 }),
      412,
      'precondition_failed',
    );
    const updated = await live
      .patch(`/v1/products/${p.id}/variants/${v.id}`)
      .send({ name: 'Large', list_price: 19 })
      .expect(200);
    expect(updated.body).toMatchObject({ name: 'Large', list_price: 19, cost_price: 5 });
    expect(
      (await live.get(`/v1/products/${p.id}`).expect(200)).body.variants.map((x: { id: string }) => x.id),
    ).toEqual([v.id]);
    const other = (await live.post('/v1/products').send({ sku: sku(), name: 'Other' }).expect(201)).body;
    expectError(await live.get(`/v1/products/${other.id}/variants/${v.id}`), 404, 'not_found');
    expect((await live.delete(`/v1/products/${p.id}/variants/${v.id}`).expect(200)).body).toEqual({
      id: v.id,
      object: 'product_variant',
      deleted: true,
    });
    expectError(await live.get(`/v1/products/${p.id}/variants/${v.id}`), 404, 'not_found');
    expect((await eventsOf(v.id)).map((e) => e.type)).toEqual([
      'product.variant.created',
      'product.variant.updated',
      'product.variant.updated',
      'product.variant.deleted',
    ]);
    expectError(
      await live.post(`/v1/products/${p.id}/variants`).send({ name: 'no sku' }),
      400,
      'parameter_missing',
      { param: 'sku' },
    );
    expectError(
      await live.patch(`/v1/products/${p.id}/variants/${v.id}`).send({ list_price: -1 }),
      400,
      'parameter_invalid',
      { param: 'list_price' },
    );
  });

  it('attaches and detaches tags and shows tag_ids', async () => {
    const p = (await live.post('/v1/products').send({ sku: sku(), name: 'Tagged' }).expect(201)).body;
    const t1 = (await live.post('/v1/tags').send({ name: 'one' }).expect(201)).body;
    const t2 = (await live.post('/v1/tags').send({ name: 'two' }).expect(201)).body;
    expect(
      (await live.post(`/v1/products/${p.id}/tags`).send({ tag_id: t1.id }).expect(200)).body.tag_ids,
    ).toEqual([t1.id]);
    expect(
      (await live.post(`/v1/products/${p.id}/tags`).send({ tag_id: t2.id }).expect(200)).body.tag_ids,
    ).toEqual([t1.id, t2.id]);
    // Attaching again changes nothing and sends no event.
    expect(
      (await live.post(`/v1/products/${p.id}/tags`).send({ tag_id: t1.id }).expect(200)).body.tag_ids,
    ).toEqual([t1.id, t2.id]);
    expect((await live.get(`/v1/products/${p.id}`).expect(200)).body.tag_ids).toEqual([t1.id, t2.id]);
    expect((await live.delete(`/v1/products/${p.id}/tags/${t1.id}`).expect(200)).body.tag_ids).toEqual([
      t2.id,
    ]);
    expectError(await live.delete(`/v1/products/${p.id}/tags/${t1.id}`), 404, 'not_found');
    const events = await eventsOf(p.id);
    expect(events.map((e) => e.type)).toEqual([
      'product.created',
      'product.tag.added',
      'product.tag.added',
      'product.tag.removed',
    ]);
    expect(events[3].data.previous_attributes).toEqual({ tag_ids: [t1.id, t2.id] });
    // Deleting a tag detaches it everywhere.
    await live.delete(`/v1/tags/${t2.id}`).expect(200);
    expect((await live.get(`/v1/products/${p.id}`).expect(200)).body.tag_ids).toEqual([]);

    const testTag = (await test.post('/v1/tags').send({ name: 'test mode' }).expect(201)).body;
    expectError(
      await live.post(`/v1/products/${p.id}/tags`).send({ tag_id: testTag.id }),
      400,
      'parameter_invalid',
      { param: 'tag_id' },
    );
    expectError(await live.post(`/v1/products/${p.id}/tags`).send({}), 400, 'parameter_missing', {
      param: 'tag_id',
    });
    expectError(
      await live.post(`/v1/products/${p.id}/tags`).send({ tag_id: 'nope' }),
      400,
      'parameter_invalid',
      { param: 'tag_id' },
    );
    expectError(
      await live.post(`/v1/products/${p.id}/tags`).send({ tag_id: t1.id, extra: 1 }),
      400,
      'parameter_unknown',
      { param: 'extra' },
    );
    expectError(await test.post(`/v1/products/${p.id}/tags`).send({ tag_id: testTag.id }), 404, 'not_found');
  });

  it('validates bodies and queries in the error envelope', async () => {
    const bad: [Record<string, unknown>, string, string][] = [
      [{ name: 'x' }, 'parameter_missing', 'sku'],
      [{ sku: 'A1' }, 'parameter_missing', 'name'],
      [{ sku: 'has space', name: 'x' }, 'parameter_invalid', 'sku'],
      [{ sku: sku(), name: 'x', list_price: -1 }, 'parameter_invalid', 'list_price'],
      [{ sku: sku(), name: 'x', list_price: '10' }, 'parameter_invalid', 'list_price'],
      [{ sku: sku(), name: 'x', list_price: 1.23456 }, 'parameter_invalid', 'list_price'],
      [{ sku: sku(), name: 'x', cost_price: -0.01 }, 'parameter_invalid', 'cost_price'],
      [{ sku: sku(), name: 'x', type: 'bundle' }, 'parameter_invalid', 'type'],
      [{ sku: sku(), name: 'x', currency: 'us' }, 'parameter_invalid', 'currency'],
      [{ sku: sku(), name: 'x', currency: 'U$D' }, 'parameter_invalid', 'currency'],
      [{ sku: sku(), name: 'x', currency: 'ßUS' }, 'parameter_invalid', 'currency'],
      [{ sku: sku(), name: 'x', weight: { value: -1, unit: 'kg' } }, 'parameter_invalid', 'weight.value'],
      [{ sku: sku(), name: 'x', weight: { value: 1, unit: 'stone' } }, 'parameter_invalid', 'weight.unit'],
      [{ sku: sku(), name: 'x', weight: 5 }, 'parameter_invalid', 'weight'],
      [
        { sku: sku(), name: 'x', dimensions: { length: 1, width: 1, unit: 'cm' } },
        'parameter_missing',
        'dimensions.height',
      ],
      [{ sku: sku(), name: 'x', freight_insurance: 'yes' }, 'parameter_invalid', 'freight_insurance'],
      [{ sku: sku(), name: 'x', serial_tracked: 1 }, 'parameter_invalid', 'serial_tracked'],
      [{ sku: sku(), name: 'x', category_id: 'abc' }, 'parameter_invalid', 'category_id'],
      [
        { sku: sku(), name: 'x', category_id: '0190a0a0-0000-7000-8000-000000000000' },
        'parameter_invalid',
        'category_id',
      ],
      [{ sku: sku(), name: 'x', metadata: { a: 1 } }, 'parameter_invalid', 'metadata'],
      [{ sku: sku(), name: 'x', metadata: 'text' }, 'parameter_invalid', 'metadata'],
      [{ sku: sku(), name: 'x', demand_avg_per_day: 3 }, 'parameter_unknown', 'demand_avg_per_day'],
      [{ sku: sku(), name: 'x', status: 'archived' }, 'parameter_unknown', 'status'],
      [
        { sku: sku(), name: 'x', variants: [{ sku: sku(), name: 'v', list_price: -2 }] },
        'parameter_invalid',
        'variants[0].list_price',
      ],
      [{ sku: sku(), name: 'x', variants: [{ name: 'v' }] }, 'parameter_missing', 'variants[0].sku'],
      [{ sku: sku(), name: 'x', variants: 'none' }, 'parameter_invalid', 'variants'],
    ];
    for (const [body, code, param] of bad) {
      const res = await live.post('/v1/products').send(body);
      expectError(res, 400, code, { param, type: 'validation_error' });
    }
    const p = (await live.post('/v1/products').send({ sku: sku(), name: 'valid' }).expect(201)).body;
    expectError(await live.patch(`/v1/products/${p.id}`).send({ list_price: -5 }), 400, 'parameter_invalid', {
      param: 'list_price',
    });
    expectError(await live.patch(`/v1/products/${p.id}`).send({ name: '' }), 400, 'parameter_invalid', {
      param: 'name',
    });
    expectError(await live.patch(`/v1/products/${p.id}`).send({ variants: [] }), 400, 'parameter_unknown', {
      param: 'variants',
    });
    expectError(await live.get('/v1/products?type=bundle'), 400, 'parameter_invalid', { param: 'type' });
    expectError(await live.get('/v1/products?status=deleted'), 400, 'parameter_invalid', { param: 'status' });
    expectError(await live.get('/v1/products?category_id=x'), 400, 'parameter_invalid', {
      param: 'category_id',
    });
    expectError(await live.get('/v1/products?limit=0'), 400, 'parameter_invalid', { param: 'limit' });
    expectError(await live.get('/v1/products?color=red'), 400, 'parameter_unknown', { param: 'color' });
    expectError(await live.get('/v1/products/not-a-uuid'), 404, 'not_found');
    expectError(await live.get(`/v1/products?expand[]=tags`), 400, 'invalid_expand', { param: 'expand[0]' });
  });

  it('lists newest first with cursors and filters', async () => {
    const cat = (await live.post('/v1/product_categories').send({ name: 'Filter cat' }).expect(201)).body;
    const made: { id: string; sku: string }[] = [];
    for (let i = 0; i < 3; i++) {
      made.push(
        (
          await live
            .post('/v1/products')
            .send({ sku: sku('LST'), name: `L${i}`, type: 'service', category_id: cat.id })
            .expect(201)
        ).body,
      );
    }
    const page1 = await live.get(`/v1/products?category_id=${cat.id}&limit=2&include_count=true`).expect(200);
    expect(page1.body).toMatchObject({ object: 'list', has_more: true, url: '/v1/products', total_count: 3 });
    expect(page1.body.data.map((p: { id: string }) => p.id)).toEqual([made[2].id, made[1].id]);
    const page2 = await live
      .get(`/v1/products?category_id=${cat.id}&limit=2&starting_after=${made[1].id}`)
      .expect(200);
    expect(page2.body.data.map((p: { id: string }) => p.id)).toEqual([made[0].id]);
    expect(page2.body.has_more).toBe(false);
    const bySku = await live.get(`/v1/products?sku=${encodeURIComponent(made[0].sku)}`).expect(200);
    expect(bySku.body.data.map((p: { id: string }) => p.id)).toEqual([made[0].id]);
    await live.delete(`/v1/products/${made[1].id}`).expect(200);
    const active = await live
      .get(`/v1/products?category_id=${cat.id}&status=active&type=service`)
      .expect(200);
    expect(active.body.data.map((p: { id: string }) => p.id)).toEqual([made[2].id, made[0].id]);
    const archived = await live.get(`/v1/products?category_id=${cat.id}&status=archived`).expect(200);
    expect(archived.body.data.map((p: { id: string }) => p.id)).toEqual([made[1].id]);
    const none = await live.get(`/v1/products?category_id=${cat.id}&type=box`).expect(200);
    expect(none.body.data).toEqual([]);
  });

  it('expands the category of 100 products with a constant number of queries', async () => {
    const cats = [];
    for (let i = 0; i < 3; i++)
      cats.push(
        (
          await live
            .post('/v1/product_categories')
            .send({ name: `Bulk ${i}` })
            .expect(201)
        ).body,
      );
    // A second key spreads the 100 creates over two per-key rate-limit windows.
    const owner = api(app, app.seed.entities.primary.keys.migration);
    for (let i = 0; i < 100; i++) {
      await owner
        .post('/v1/products')
        .send({
          sku: sku('BULK'),
          name: `Bulk ${i}`,
          category_id: cats[i % 3].id,
          variants: [{ sku: sku('BV'), name: 'v' }],
        })
        .expect(201);
    }
    const registry = app.get(ResourceRegistry);
    const definition = registry.get('product_category')!;
    const original = definition.load!;
    const calls: string[][] = [];
    definition.load = async (ids) => {
      calls.push(ids);
      return original(ids);
    };
    const dataSource = app.get(DataSource);
    let queries = 0;
    const logQuery = dataSource.logger.logQuery.bind(dataSource.logger);
    dataSource.logger.logQuery = (...args: Parameters<typeof logQuery>) => {
      queries++;
      return logQuery(...args);
    };
    try {
      const count = async (limit: number) => {
        queries = 0;
        calls.length = 0;
        const res = await live.get(`/v1/products?limit=${limit}&expand[]=category`).expect(200);
        expect(res.body.data).toHaveLength(limit);
        // Each product with a category has it expanded.
        const categorised = res.body.data.filter((p: { category_id: string | null }) => p.category_id);
        expect(categorised.map((p: { category?: unknown }) => p.category)).toEqual(
          categorised.map((p: { category_id: string }) =>
            expect.objectContaining({ object: 'product_category', id: p.category_id }),
          ),
        );
        return { queries, loaderCalls: calls.length };
      };
      const small = await count(10);
      const large = await count(100);
      expect(large.loaderCalls).toBe(1);
      expect(small.loaderCalls).toBe(1);
      expect(calls[0].length).toBeLessThanOrEqual(3);
      expect(small.queries).toBeGreaterThan(0);
      expect(large.queries).toBe(small.queries);
    } finally {
      definition.load = original;
      dataSource.logger.logQuery = logQuery;
    }
    const one = await live.get(`/v1/products?limit=1&expand[]=category&expand[]=category.parent`).expect(200);
    expect(one.body.data[0].category.parent).toBeNull();
  });

  it('isolates modes and entities (404) and serves the entity alias', async () => {
    const p = (await live.post('/v1/products').send({ sku: sku(), name: 'Mine' }).expect(201)).body;
    for (const client of [test, other]) {
      expectError(await client.get(`/v1/products/${p.id}`), 404, 'not_found');
      expectError(await client.patch(`/v1/products/${p.id}`).send({ name: 'x' }), 404, 'not_found');
      expectError(await client.delete(`/v1/products/${p.id}`), 404, 'not_found');
      expectError(await client.post(`/v1/products/${p.id}/restore`), 404, 'not_found');
      expectError(await client.get(`/v1/products/${p.id}/variants`), 404, 'not_found');
      const list = await client.get(`/v1/products?sku=${encodeURIComponent(p.sku)}`).expect(200);
      expect(list.body.data).toEqual([]);
    }
    const primary = app.seed.entities.primary.id;
    await live.get(`/v1/entities/${primary}/products/${p.id}`).expect(200);
    expectError(
      await live.get(`/v1/entities/${app.seed.entities.secondary.id}/products/${p.id}`),
      403,
      'entity_isolation_violation',
    );
  });

  it('needs products:read / products:write', async () => {
    const readOnly = api(app, app.seed.entities.primary.keys.read_only);
    const ordersOnly = api(app, app.seed.entities.primary.keys.orders_only);
    await readOnly.get('/v1/products').expect(200);
    expectError(
      await readOnly.post('/v1/products').send({ sku: sku(), name: 'x' }),
      403,
      'insufficient_scope',
      { required: 'products:write' },
    );
    expectError(await ordersOnly.get('/v1/products'), 403, 'insufficient_scope', {
      required: 'products:read',
    });
  });

  it('honours If-Match on PATCH', async () => {
    const p = await live.post('/v1/products').send({ sku: sku(), name: 'Etag' }).expect(201);
    const etag = (await live.get(`/v1/products/${p.body.id}`).expect(200)).headers.etag;
    await live.patch(`/v1/products/${p.body.id}`).set('If-Match', etag).send({ name: 'Etag 2' }).expect(200);
    expectError(
      await live.patch(`/v1/products/${p.body.id}`).set('If-Match', etag).send({ name: 'Etag 3' }),
      412,
      'precondition_failed',
    );
  });

  it('seeds product_id and tag_id fixtures', async () => {
    const { product_id, tag_id } = app.seed.fixtures as Record<string, string>;
    const product = (await live.get(`/v1/products/${product_id}`).expect(200)).body;
    expect(product).toMatchObject({ type: 'standard', status: 'active', tag_ids: [tag_id], livemode: true });
    await live.get(`/v1/tags/${tag_id}`).expect(200);
  });
});
