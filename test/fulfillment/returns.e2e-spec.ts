import { api, expectError } from '../support/http';
import { outbox } from '../support/outbox';
import { startTestApp, TestApp } from '../support/test-app';
import { Client, confirmedOrder, entriesOf, fixturesOf, newProduct, stock } from './support';

describe('returns against shipped packages', () => {
  let app: TestApp;
  let live: Client;
  let fx: ReturnType<typeof fixturesOf>;

  beforeAll(async () => {
    app = await startTestApp();
    live = api(app, app.seed.entities.primary.keys.live);
    fx = fixturesOf(app);
  });
  afterAll(() => app.close());

  const returnOrder = async (productId: string, quantity: number) => {
    const draft = await live
      .post('/v1/orders')
      .send({
        document_type: 'return',
        account_id: fx.accountId,
        lines: [{ product_id: productId, quantity }],
      })
      .expect(201);
    return (await live.post(`/v1/orders/${draft.body.id}/confirm`).send({}).expect(200)).body.id as string;
  };
  const shipped = async (productId: string, quantity: number, body: Record<string, unknown> = {}) => {
    const order = await confirmedOrder(live, fx.accountId, [
      { product_id: productId, quantity, unit_price: 50 },
    ]);
    const pkg = (
      await live
        .post('/v1/packages')
        .send({ order_id: order.id, items: [{ order_item_id: order.items[0].id, quantity, ...body }] })
        .expect(201)
    ).body;
    return (
      await live
        .post(`/v1/packages/${pkg.id}/ship`)
        .send({ carrier: 'ups', tracking_number: `1Z${pkg.id.slice(-8)}` })
        .expect(200)
    ).body;
  };
  const onHand = async (productId: string) =>
    (await live.get(`/v1/inventory/balances?product_id=${productId}`).expect(200)).body.data[0]
      .on_hand as number;

  it('restocks at the shipped cost, posts COGS_REVERSAL and RETURN, and marks the package returned', async () => {
    const product = await newProduct(live);
    await stock(live, product, fx.locationId, 10, 12);
    const pkg = await shipped(product, 3);
    expect(await onHand(product)).toBe(7);
    const ret = await returnOrder(product, 3);
    const first = (
      await live
        .post(`/v1/returns/${ret}/receive`)
        .send({ package_id: pkg.id, items: [{ package_item_id: pkg.items[0].id, quantity: 2 }] })
        .expect(200)
    ).body;
    expect(first).toMatchObject({
      object: 'return_receipt',
      return_id: ret,
      total_value: 24,
      revenue_reversed: 100,
      package_status: 'shipped',
    });
    expect(await onHand(product)).toBe(9);
    const [cogs] = await entriesOf(app, 'COGS_REVERSAL', first.id);
    expect(Object.fromEntries(cogs.lines.map((l) => [l.role, Number(l.debit) || -Number(l.credit)]))).toEqual(
      { inventory: 24, cogs: -24 },
    );
    const [revenue] = await entriesOf(app, 'RETURN', first.id);
    expect(revenue.total_debit).toBe(revenue.total_credit);
    expectError(
      await live
        .post(`/v1/returns/${ret}/receive`)
        .send({ package_id: pkg.id, items: [{ package_item_id: pkg.items[0].id, quantity: 2 }] }),
      422,
      'quantity_exceeds_remaining',
      { param: 'items[0].quantity' },
    );
    const last = (
      await live
        .post(`/v1/returns/${ret}/receive`)
        .send({ package_id: pkg.id, items: [{ package_item_id: pkg.items[0].id, quantity: 1 }] })
        .expect(200)
    ).body;
    expect(last.package_status).toBe('returned');
    expect((await live.get(`/v1/packages/${pkg.id}`).expect(200)).body).toMatchObject({
      status: 'returned',
      items: [{ returned_quantity: 3 }],
    });
    const receipts = (await live.get(`/v1/returns/${ret}/receipts`).expect(200)).body.data;
    expect(receipts.map((r: { id: string }) => r.id)).toEqual([first.id, last.id]);
    const received = (await outbox(app).all('return.received')).filter(
      (e) => e.data.object.return_id === ret,
    );
    expect(received).toHaveLength(2);
    expectError(
      await live
        .post(`/v1/returns/${ret}/receive`)
        .send({ package_id: pkg.id, items: [{ package_item_id: pkg.items[0].id, quantity: 1 }] }),
      409,
      'invalid_state',
    );
  });

  it('returns serials as damaged or available', async () => {
    const product = await newProduct(live, { serialTracked: true });
    await stock(live, product, fx.locationId, 2, 40, ['RET-A', 'RET-B']);
    const order = await confirmedOrder(live, fx.accountId, [{ product_id: product, quantity: 2 }]);
    await live
      .post(`/v1/orders/${order.id}/lines/${order.items[0].id}/allocate-serials`)
      .send({ serial_numbers: ['RET-A', 'RET-B'] });
    const allocated = await live
      .get(`/v1/inventory/serials?product_id=${product}&status=allocated`)
      .expect(200);
    if (allocated.body.data.length !== 2)
      throw new Error(`serial allocation route changed: ${JSON.stringify(allocated.body)}`);
    const pkg = (
      await live
        .post('/v1/packages')
        .send({
          order_id: order.id,
          items: [{ order_item_id: order.items[0].id, quantity: 2, serial_numbers: ['RET-A', 'RET-B'] }],
        })
        .expect(201)
    ).body;
    await live
      .post(`/v1/packages/${pkg.id}/ship`)
      .send({ carrier: 'usps', tracking_number: '9400SER' })
      .expect(200);
    const ret = await returnOrder(product, 2);
    expectError(
      await live.post(`/v1/returns/${ret}/receive`).send({
        package_id: pkg.id,
        items: [{ package_item_id: pkg.items[0].id, quantity: 1, serial_numbers: ['NOPE'] }],
      }),
      400,
      'parameter_invalid',
      { param: 'items[0].serial_numbers' },
    );
    await live
      .post(`/v1/returns/${ret}/receive`)
      .send({
        package_id: pkg.id,
        items: [
          {
            package_item_id: pkg.items[0].id,
            quantity: 1,
            serial_numbers: ['RET-A'],
            disposition: 'damaged',
          },
        ],
      })
      .expect(200);
    await live
      .post(`/v1/returns/${ret}/receive`)
      .send({
        package_id: pkg.id,
        items: [{ package_item_id: pkg.items[0].id, quantity: 1, serial_numbers: ['RET-B'] }],
      })
      .expect(200);
    const status = async (s: string) =>
      (await live.get(`/v1/inventory/serials?product_id=${product}&status=${s}`).expect(200)).body.data.map(
        (r: { serial_number: string }) => r.serial_number,
      );
    expect(await status('damaged')).toEqual(['RET-A']);
    expect(await status('available')).toEqual(['RET-B']);
  });

  it('rejects what is not a return, a package of another account, scopes and other entities', async () => {
    const pkg = await shipped(fx.productId, 1);
    expectError(
      await live
        .post(`/v1/returns/${fx.salesOrder.id}/receive`)
        .send({ package_id: pkg.id, items: [{ package_item_id: pkg.items[0].id, quantity: 1 }] }),
      404,
      'not_found',
    );
    const otherAccount = (
      await live.post('/v1/accounts').send({ name: 'Other returns customer' }).expect(201)
    ).body.id;
    const draft = await live
      .post('/v1/orders')
      .send({
        document_type: 'return',
        account_id: otherAccount,
        lines: [{ product_id: fx.productId, quantity: 1 }],
      })
      .expect(201);
    await live.post(`/v1/orders/${draft.body.id}/confirm`).send({}).expect(200);
    expectError(
      await live
        .post(`/v1/returns/${draft.body.id}/receive`)
        .send({ package_id: pkg.id, items: [{ package_item_id: pkg.items[0].id, quantity: 1 }] }),
      400,
      'parameter_invalid',
      { param: 'package_id' },
    );
    const ret = await returnOrder(fx.productId, 1);
    const body = { package_id: pkg.id, items: [{ package_item_id: pkg.items[0].id, quantity: 1 }] };
    expectError(
      await api(app, app.seed.entities.primary.keys.orders_only)
        .post(`/v1/returns/${ret}/receive`)
        .send(body),
      403,
      'insufficient_scope',
      {
        required: 'returns:write',
      },
    );
    for (const key of [app.seed.entities.primary.keys.test, app.seed.entities.secondary.keys.live]) {
      expectError(await api(app, key).post(`/v1/returns/${ret}/receive`).send(body), 404, 'not_found');
      expectError(await api(app, key).get(`/v1/returns/${ret}/receipts`), 404, 'not_found');
    }
    await live.post(`/v1/returns/${ret}/receive`).send(body).expect(200);
  });
});
