import { api, expectError } from '../support/http';
import { outbox } from '../support/outbox';
import { startTestApp, TestApp } from '../support/test-app';

/** `/product-categories` (kebab-case) is canonical; `/product_categories` a deprecated alias. */
describe('product categories at /product-categories', () => {
  let app: TestApp;
  let live: ReturnType<typeof api>;
  const path = '/v1/product-categories';

  beforeAll(async () => {
    app = await startTestApp();
    live = api(app, app.seed.entities.primary.keys.live);
  });
  afterAll(() => app.close());

  it('creates, retrieves, lists, updates and deletes', async () => {
    const root = await live.post(path).send({ name: 'Garden', description: 'Outdoor' }).expect(201);
    expect(root.body).toMatchObject({ object: 'product_category', name: 'Garden', parent_id: null });
    const child = (await live.post(path).send({ name: 'Hoses', parent_id: root.body.id }).expect(201)).body;

    expect((await live.get(`${path}/${child.id}`).expect(200)).body).toEqual(child);
    const expanded = await live.get(`${path}/${child.id}?expand[]=parent`).expect(200);
    expect(expanded.body.parent).toMatchObject({ id: root.body.id, name: 'Garden' });
    const list = await live.get(`${path}?parent_id=${root.body.id}`).expect(200);
    expect(list.body).toMatchObject({ object: 'list', url: path, has_more: false });
    expect(list.body.data.map((c: { id: string }) => c.id)).toEqual([child.id]);

    const updated = await live.patch(`${path}/${child.id}`).send({ name: 'Garden hoses' }).expect(200);
    expect(updated.body.name).toBe('Garden hoses');
    expectError(await live.delete(`${path}/${root.body.id}`), 409, 'resource_conflict');
    expect((await live.delete(`${path}/${child.id}`).expect(200)).body).toEqual({
      id: child.id,
      object: 'product_category',
      deleted: true,
    });
    expectError(await live.get(`${path}/${child.id}`), 404, 'not_found');
    await live.delete(`${path}/${root.body.id}`).expect(200);

    expect(await outbox(app).typesOf(child.id)).toEqual([
      'product.category.created',
      'product.category.updated',
      'product.category.deleted',
    ]);
  });

  it('keeps the snake-case alias and the entity-prefixed form on the same records and scopes', async () => {
    const created = (await live.post('/v1/product_categories').send({ name: 'Alias' }).expect(201)).body;
    expect((await live.get(`${path}/${created.id}`).expect(200)).body).toEqual(created);
    const entity = app.seed.entities.primary.id;
    expect(
      (await live.get(`/v1/entities/${entity}/product-categories/${created.id}`).expect(200)).body,
    ).toEqual(created);
    const snakeList = await live.get('/v1/product_categories').expect(200);
    expect(snakeList.body.url).toBe('/v1/product_categories');
    expect(snakeList.body.data).toEqual((await live.get(path).expect(200)).body.data);

    const ordersOnly = api(app, app.seed.entities.primary.keys.orders_only);
    expectError(await ordersOnly.get(path), 403, 'insufficient_scope', {
      required: 'product_categories:read',
    });
    const readOnly = api(app, app.seed.entities.primary.keys.read_only);
    await readOnly.get(path).expect(200);
    expectError(await readOnly.post(path).send({ name: 'x' }), 403, 'insufficient_scope', {
      required: 'product_categories:write',
    });
    expectError(await live.put(`${path}/${created.id}`).send({}), 405, 'method_not_allowed');
  });

  it('documents /product-categories and marks /product_categories deprecated', async () => {
    const doc = (await api(app).get('/v1/openapi.json').expect(200)).body;
    for (const method of ['get', 'post']) {
      expect(doc.paths[path][method].deprecated).toBeFalsy();
      expect(doc.paths['/v1/product_categories'][method].deprecated).toBe(true);
      expect(doc.paths['/v1/product_categories'][method].description).toMatch(
        /Deprecated alias of `\/v1\/product-categories`/,
      );
    }
    for (const method of ['get', 'patch', 'delete']) {
      expect(doc.paths[`${path}/{id}`][method].deprecated).toBeFalsy();
      expect(doc.paths['/v1/product_categories/{id}'][method].deprecated).toBe(true);
    }
    // The entity-prefixed form is described once for every flat route, not copied per path.
    expect(doc.paths['/v1/entities/{entity_id}/product-categories']).toBeUndefined();
    expect(doc.paths['/v1/entities/{entity_id}/product_categories']).toBeUndefined();
    // Operation ids stay unique across every path.
    const ids = Object.values(doc.paths as Record<string, Record<string, { operationId?: string }>>)
      .flatMap((item) => Object.values(item))
      .map((op) => op.operationId)
      .filter(Boolean);
    expect(new Set(ids).size).toBe(ids.length);
    // Webhook endpoints are documented in both forms: the flat one canonical, the entity-scoped one deprecated.
    expect(doc.paths['/v1/webhook_endpoints/{id}/deliveries'].get.deprecated).toBeFalsy();
    expect(doc.paths['/v1/entities/{entity_id}/webhook_endpoints/{id}/deliveries'].get.deprecated).toBe(true);
  });
});
