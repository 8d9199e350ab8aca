import { api, expectError } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';
import { Client, confirmedOrder, fixturesOf, newProduct, stock } from './support';

/**
 * The units of each order line per package status (package_line_units, kept by triggers) agree
 * with the packages' items through every move of a package, and are what the remaining
 * quantity of a line is checked against.
 */
describe('package line units', () => {
  let app: TestApp;
  let live: Client;

  beforeAll(async () => {
    app = await startTestApp();
    live = api(app, app.seed.entities.primary.keys.live);
  });
  afterAll(() => app.close());

  /** The kept units of an order and the same figures summed from its packages' items. */
  const unitsOf = async (orderId: string) => {
    const order = 'ORDER BY order_item_id, status';
    const kept = await app.db.query(
      `SELECT order_item_id, status, units::int FROM package_line_units WHERE order_id = $1 AND units <> 0 ${order}`,
      [orderId],
    );
    const summed = await app.db.query(
      `SELECT i.order_item_id, p.status, sum(i.quantity)::int AS units
         FROM package_items i JOIN packages p ON p.id = i.package_id
        WHERE i.order_id = $1 GROUP BY i.order_item_id, p.status ${order}`,
      [orderId],
    );
    return { kept: kept.rows, summed: summed.rows };
  };

  it('follows creation, shipping, delivery and voiding, and bounds what is left to pack', async () => {
    const fx = fixturesOf(app);
    const product = await newProduct(live);
    await stock(live, product, fx.locationId, 20, 5);
    const order = await confirmedOrder(live, fx.accountId, [{ product_id: product, quantity: 10 }]);
    const line = order.items[0].id;
    const pack = (quantity: number) =>
      live.post('/v1/packages').send({ order_id: order.id, items: [{ order_item_id: line, quantity }] });

    const a = (await pack(3).expect(201)).body;
    const b = (await pack(4).expect(201)).body;
    await live
      .post(`/v1/packages/${b.id}/ship`)
      .send({ carrier_service: 'usps_ground_advantage', tracking_number: '9400100000000000000001' })
      .expect(200);
    expect(await unitsOf(order.id)).toEqual({
      kept: [
        { order_item_id: line, status: 'packing', units: 3 },
        { order_item_id: line, status: 'shipped', units: 4 },
      ],
      summed: [
        { order_item_id: line, status: 'packing', units: 3 },
        { order_item_id: line, status: 'shipped', units: 4 },
      ],
    });
    // 3 left to pack: 4 is too many.
    expectError(await pack(4), 422, 'quantity_exceeds_remaining', { param: 'items[0].quantity' });

    await live.post(`/v1/packages/${a.id}/void`).send({}).expect(200);
    await live.post(`/v1/packages/${b.id}/deliver`).send({}).expect(200);
    // The voided package gave its 3 units back: 6 left.
    const c = (await pack(6).expect(201)).body;
    expectError(await pack(1), 422, 'quantity_exceeds_remaining', { param: 'items[0].quantity' });
    const { kept, summed } = await unitsOf(order.id);
    expect(kept).toEqual(summed);
    expect(kept).toEqual([
      { order_item_id: line, status: 'delivered', units: 4 },
      { order_item_id: line, status: 'packing', units: 6 },
      { order_item_id: line, status: 'void', units: 3 },
    ]);

    // A package deleted by a script gives its units back before its items go.
    await app.db.query(`DELETE FROM packages WHERE id = $1`, [c.id]);
    expect((await unitsOf(order.id)).kept).toEqual([
      { order_item_id: line, status: 'delivered', units: 4 },
      { order_item_id: line, status: 'void', units: 3 },
    ]);
    await pack(6).expect(201);
  });
});
