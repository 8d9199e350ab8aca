import { confirmedOrder, fixturesOf, newProduct, stock } from '../fulfillment/support';
import { api } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * Where order lines commit stock, and packages ship from unless they name a location: the
 * inventory settings' default location, else the entity's oldest location. The answer is kept
 * with the entity's stock facts; a change of the setting takes effect on the next request.
 */
describe('inventory: the commit location follows the default location setting', () => {
  let app: TestApp;
  let live: ReturnType<typeof api>;

  beforeAll(async () => {
    app = await startTestApp();
    live = api(app, app.seed.entities.primary.keys.live);
  });
  afterAll(() => app.close());

  const allocatedAt = async (productId: string, locationId: string) =>
    (
      (await live.get(`/v1/inventory/balances?product_id=${productId}&location_id=${locationId}`).expect(200))
        .body.data as { allocated: number }[]
    ).reduce((sum, b) => sum + b.allocated, 0);

  /** A confirmed order of one unit of `productId` and a package of it, without a location named. */
  const shipOne = async (productId: string) => {
    const order = await confirmedOrder(live, fixturesOf(app).accountId, [
      { product_id: productId, quantity: 1 },
    ]);
    const pkg = await live
      .post('/v1/packages')
      .send({ order_id: order.id, items: [{ order_item_id: order.items[0].id, quantity: 1 }] })
      .expect(201);
    return pkg.body.location_id as string;
  };

  it('commits and packs at the default location, and at the oldest location without one', async () => {
    const oldest = (
      await live.get('/v1/locations?limit=1&ending_before=00000000-0000-0000-0000-000000000000').expect(200)
    ).body.data[0].id as string;
    const overflow = (
      await live
        .post('/v1/locations')
        .send({ name: 'Overflow', code: `OVF-${Date.now()}`, type: 'warehouse' })
        .expect(201)
    ).body.id as string;
    const productId = await newProduct(live);
    await stock(live, productId, oldest, 10, 4);
    await stock(live, productId, overflow, 10, 4);

    // Read (and kept) before the setting changes: the oldest location.
    expect(await shipOne(productId)).toBe(oldest);
    expect(await allocatedAt(productId, oldest)).toBe(1);

    await live.patch('/v1/inventory/settings').send({ default_location_id: overflow }).expect(200);
    expect(await shipOne(productId)).toBe(overflow);
    expect(await allocatedAt(productId, overflow)).toBe(1);

    await live.patch('/v1/inventory/settings').send({ default_location_id: null }).expect(200);
    expect(await shipOne(productId)).toBe(oldest);
    expect(await allocatedAt(productId, oldest)).toBe(2);
  });
});
