import { api, expectError } from '../support/http';
import { outbox } from '../support/outbox';
import { startTestApp, TestApp } from '../support/test-app';

describe('product categories', () => {
  let app: TestApp;
  let live: ReturnType<typeof api>;

  const eventTypes = (id: string) => outbox(app).typesOf(id);

  beforeAll(async () => {
    app = await startTestApp();
    live = api(app, app.seed.entities.primary.keys.live);
  });
  afterAll(() => app.close());

  it('creates, retrieves, updates, lists and deletes categories with events', async () => {
    const root = (
      await live
        .post('/v1/product_categories')
        .send({ name: 'Tools', description: 'Hand tools', metadata: { code: 'T' } })
        .expect(201)
    ).body;
    expect(root).toMatchObject({
      object: 'product_category',
      name: 'Tools',
      description: 'Hand tools',
      parent_id: null,
      metadata: { code: 'T' },
      livemode: true,
    });
    const child = (
      await live.post('/v1/product_categories').send({ name: 'Hammers', parent_id: root.id }).expect(201)
    ).body;
    expect(child.parent_id).toBe(root.id);
    expect((await live.get(`/v1/product_categories/${child.id}`).expect(200)).body).toEqual(child);
    const expanded = await live.get(`/v1/product_categories/${child.id}?expand[]=parent`).expect(200);
    expect(expanded.body.parent).toMatchObject({ id: root.id, name: 'Tools' });

    const children = await live.get(`/v1/product_categories?parent_id=${root.id}`).expect(200);
    expect(children.body).toMatchObject({ object: 'list', url: '/v1/product_categories', has_more: false });
    expect(children.body.data.map((c: { id: string }) => c.id)).toEqual([child.id]);
    const all = await live.get('/v1/product_categories?limit=2').expect(200);
    expect(all.body.data.map((c: { id: string }) => c.id)).toEqual([child.id, root.id]);

    const updated = await live
      .patch(`/v1/product_categories/${child.id}`)
      .send({ name: 'Mallets', parent_id: null, metadata: { x: '1' } })
      .expect(200);
    expect(updated.body).toMatchObject({ name: 'Mallets', parent_id: null, metadata: { x: '1' } });
    const [event] = (await outbox(app).eventsOf(child.id)).filter(
      (e) => e.type === 'product.category.updated',
    );
    expect(event.data.previous_attributes).toEqual({
      name: 'Hammers',
      parent_id: root.id,
      metadata: {},
    });

    expect((await live.delete(`/v1/product_categories/${child.id}`).expect(200)).body).toEqual({
      id: child.id,
      object: 'product_category',
      deleted: true,
    });
    expectError(await live.get(`/v1/product_categories/${child.id}`), 404, 'not_found');
    expect(await eventTypes(child.id)).toEqual([
      'product.category.created',
      'product.category.updated',
      'product.category.deleted',
    ]);
  });

  it('refuses cycles, unknown parents and deleting a category in use', async () => {
    const a = (await live.post('/v1/product_categories').send({ name: 'A' }).expect(201)).body;
    const b = (await live.post('/v1/product_categories').send({ name: 'B', parent_id: a.id }).expect(201))
      .body;
    const c = (await live.post('/v1/product_categories').send({ name: 'C', parent_id: b.id }).expect(201))
      .body;
    expectError(
      await live.patch(`/v1/product_categories/${a.id}`).send({ parent_id: c.id }),
      400,
      'parameter_invalid',
      { param: 'parent_id' },
    );
    expectError(
      await live.patch(`/v1/product_categories/${a.id}`).send({ parent_id: a.id }),
      400,
      'parameter_invalid',
      { param: 'parent_id' },
    );
    expectError(
      await live
        .post('/v1/product_categories')
        .send({ name: 'orphan', parent_id: '0190a0a0-0000-7000-8000-000000000000' }),
      400,
      'parameter_invalid',
      { param: 'parent_id' },
    );
    expectError(await live.delete(`/v1/product_categories/${b.id}`), 409, 'resource_conflict', {
      type: 'conflict',
    });
    const p = (
      await live
        .post('/v1/products')
        .send({ sku: `CAT-${Date.now()}`, name: 'in C', category_id: c.id })
        .expect(201)
    ).body;
    expectError(await live.delete(`/v1/product_categories/${c.id}`), 409, 'resource_conflict');
    await live.patch(`/v1/products/${p.id}`).send({ category_id: null }).expect(200);
    await live.delete(`/v1/product_categories/${c.id}`).expect(200);
  });

  it('validates bodies and queries', async () => {
    expectError(await live.post('/v1/product_categories').send({}), 400, 'parameter_missing', {
      param: 'name',
    });
    expectError(await live.post('/v1/product_categories').send({ name: '' }), 400, 'parameter_invalid', {
      param: 'name',
    });
    expectError(
      await live.post('/v1/product_categories').send({ name: 'x', parent_id: 'nope' }),
      400,
      'parameter_invalid',
      { param: 'parent_id' },
    );
    expectError(
      await live.post('/v1/product_categories').send({ name: 'x', slug: 'x' }),
      400,
      'parameter_unknown',
      { param: 'slug' },
    );
    expectError(
      await live.post('/v1/product_categories').send({ name: 'x'.repeat(201) }),
      400,
      'parameter_invalid',
      { param: 'name' },
    );
    expectError(await live.get('/v1/product_categories?parent_id=1'), 400, 'parameter_invalid', {
      param: 'parent_id',
    });
    expectError(await live.get('/v1/product_categories?limit=101'), 400, 'parameter_invalid', {
      param: 'limit',
    });
    expectError(await live.get('/v1/product_categories?expand[]=children'), 400, 'invalid_expand', {
      param: 'expand[0]',
    });
  });

  it('isolates modes and entities (404)', async () => {
    const cat = (await live.post('/v1/product_categories').send({ name: 'Private' }).expect(201)).body;
    const test = api(app, app.seed.entities.primary.keys.test);
    const other = api(app, app.seed.entities.secondary.keys.live);
    for (const client of [test, other]) {
      expectError(await client.get(`/v1/product_categories/${cat.id}`), 404, 'not_found');
      expectError(
        await client.patch(`/v1/product_categories/${cat.id}`).send({ name: 'x' }),
        404,
        'not_found',
      );
      expectError(await client.delete(`/v1/product_categories/${cat.id}`), 404, 'not_found');
      expectError(
        await client.post('/v1/products').send({ sku: 'X-1', name: 'x', category_id: cat.id }),
        400,
        'parameter_invalid',
        { param: 'category_id' },
      );
    }
  });

  it('needs product_categories:read / product_categories:write', async () => {
    const readOnly = api(app, app.seed.entities.primary.keys.read_only);
    const ordersOnly = api(app, app.seed.entities.primary.keys.orders_only);
    await readOnly.get('/v1/product_categories').expect(200);
    expectError(
      await readOnly.post('/v1/product_categories').send({ name: 'x' }),
      403,
      'insufficient_scope',
      { required: 'product_categories:write' },
    );
    expectError(await ordersOnly.get('/v1/product_categories'), 403, 'insufficient_scope', {
      required: 'product_categories:read',
    });
  });
});
