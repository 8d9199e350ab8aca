import { expectEvent } from '../support/expect-event';
import { asEntity } from '../support/as-entity';
import { OrderRepository, SalesOrders } from '#contexts/sales';
import { api, expectError } from '../support/http';
import { outbox } from '../support/outbox';
import { startTestApp, TestApp } from '../support/test-app';
import { FulfillmentGateTestModule } from './fulfillment-gate.module';
import { countOrdersOfEveryTenant } from './support';

type Api = ReturnType<typeof api>;
type Order = { id: string; lines: { id: string; [k: string]: unknown }[]; [k: string]: unknown };

describe('orders', () => {
  let app: TestApp;
  let live: Api;
  let accountId: string;
  let productId: string;

  beforeAll(async () => {
    app = await startTestApp({}, { extraModules: [FulfillmentGateTestModule] });
    live = api(app, app.seed.entities.primary.keys.live);
    productId = app.seed.fixtures.product_id as string;
    accountId = (await live.post('/v1/accounts').send({ name: 'Orders Co' }).expect(201)).body.id;
  });
  afterAll(() => app.close());

  const createOrder = (body: Record<string, unknown>, client: Api = live) =>
    client.post('/v1/orders').send({ account_id: accountId, ...body });
  const newOrder = async (body: Record<string, unknown> = {}): Promise<Order> =>
    (await createOrder({ lines: [{ product_id: productId, quantity: 2 }], ...body }).expect(201)).body;
  const eventsOf = (id: string) => outbox(app).typesOf(id);
  const orderCount = () => countOrdersOfEveryTenant(app);

  it('creates a draft sales order priced from the product list price, with exact totals', async () => {
    const res = await createOrder({
      lines: [
        { product_id: productId, quantity: 3 },
        {
          description: 'Service hour',
          quantity: 1.5,
          unit_price: 19.99,
          discount_percent: 10,
          tax_rate: 8.25,
        },
      ],
    }).expect(201);
    const order = res.body;
    expect(order).toMatchObject({
      object: 'order',
      document_type: 'sales_order',
      account_id: accountId,
      currency: 'USD',
      order_status: 'draft',
      payment_status: 'unpaid',
      livemode: true,
      tag_ids: [],
    });
    expect(order.lines[0]).toMatchObject({
      product_id: productId,
      quantity: 3,
      list_price: 25,
      unit_price: 25,
      pricing_policy_id: null,
      subtotal: 75,
      total: 75,
      description: 'QA Widget',
    });
    // 1.5 × 19.99 = 29.985; 10% = 2.9985; taxable 26.9865; tax 8.25% = 2.22638625 → 2.2264
    expect(order.lines[1]).toMatchObject({
      subtotal: 29.985,
      discount_total: 2.9985,
      tax_total: 2.2264,
      total: 29.2129,
    });
    // Order totals: each sum of the exact line amounts rounded half-up to cents, and the total
    // made of those rounded sums (so the three add up):
    //   subtotal 75 + 29.985          = 104.985 -> 104.99
    //   discount 0 + 2.9985           =   2.9985 ->   3.00
    //   tax      0 + 2.2264           =   2.2264 ->   2.23
    //   total    104.99 − 3.00 + 2.23 = 104.22 (the line totals 75 + 29.2129 would round to 104.21)
    expect(order).toMatchObject({
      subtotal: 104.99,
      discount_total: 3,
      tax_total: 2.23,
      total: 104.22,
      amount_paid: 0,
      amount_due: 104.22,
    });
    const got = await live.get(`/v1/orders/${order.id}`).expect(200);
    expect(got.body).toEqual(order);
    expect(await eventsOf(order.id)).toEqual(['order.created']);
  });

  it('adds 1,000 lines of 0.1 to exactly 100.00 in one request', async () => {
    const res = await createOrder({
      lines: Array.from({ length: 1000 }, () => ({ description: 'dime', quantity: 1, unit_price: 0.1 })),
    }).expect(201);
    expect(res.body.lines).toHaveLength(1000);
    expect(res.body).toMatchObject({ subtotal: 100, total: 100, amount_due: 100 });
    // The exact stored decimal (numeric(19,4)), as the order repository reads it: the API answers JSON numbers.
    const stored = (await asEntity(app, () => app.get(OrderRepository).findById(res.body.id)))!;
    expect({ subtotal: stored.subtotal.toFixed(4), total: stored.total.toFixed(4) }).toEqual({
      subtotal: '100.0000',
      total: '100.0000',
    });
  });

  it('validates bodies with the line path and never writes half an order', async () => {
    const before = await orderCount();
    const line = { product_id: productId, quantity: 1 };
    expectError(await createOrder({ lines: [line, { ...line, quantity: 0 }] }), 400, 'parameter_invalid', {
      param: 'lines[1].quantity',
    });
    expectError(await createOrder({ lines: [{ ...line, unit_price: -1 }] }), 400, 'parameter_invalid', {
      param: 'lines[0].unit_price',
    });
    expectError(
      await createOrder({ lines: [line, { ...line, product_id: '0190a000-0000-7000-8000-000000000000' }] }),
      400,
      'parameter_invalid',
      { param: 'lines[1].product_id' },
    );
    expectError(
      await createOrder({ lines: [line, { ...line, product_id: 'nope' }] }),
      400,
      'parameter_invalid',
      { param: 'lines[1].product_id' },
    );
    expectError(await createOrder({ lines: [{ ...line, colour: 'red' }] }), 400, 'parameter_unknown', {
      param: 'lines[0].colour',
    });
    expectError(await createOrder({ lines: [{ description: 'x', quantity: 1 }] }), 400, 'parameter_missing', {
      param: 'lines[0].unit_price',
    });
    expectError(await createOrder({ lines: [{ quantity: 1, unit_price: 2 }] }), 400, 'parameter_missing', {
      param: 'lines[0].description',
    });
    expectError(await createOrder({ lines: [{ ...line, tax_rate: 101 }] }), 400, 'parameter_invalid', {
      param: 'lines[0].tax_rate',
    });
    expectError(await createOrder({ lines: [{ ...line, quantity: '2' }] }), 400, 'parameter_invalid', {
      param: 'lines[0].quantity',
    });
    expectError(await createOrder({ document_type: 'memo' }), 400, 'parameter_invalid', {
      param: 'document_type',
    });
    expectError(await createOrder({ bogus: 1 }), 400, 'parameter_unknown', { param: 'bogus' });
    expectError(await createOrder({ lines: 'x' }), 400, 'parameter_invalid', { param: 'lines' });
    expectError(await live.post('/v1/orders').send({ lines: [] }), 400, 'parameter_missing', {
      param: 'account_id',
    });
    // Only a purchase order may go without an account; a null one is as missing.
    for (const document_type of ['quote', 'sales_order', 'invoice'])
      expectError(
        await live.post('/v1/orders').send({ document_type, account_id: null }),
        400,
        'parameter_missing',
        { param: 'account_id' },
      );
    expectError(
      await createOrder({ account_id: '0190a000-0000-7000-8000-000000000000' }),
      400,
      'parameter_invalid',
      { param: 'account_id' },
    );
    expectError(await createOrder({ currency: 'EUR' }), 400, 'parameter_invalid', { param: 'currency' });
    expectError(
      await createOrder({ lines: [{ description: 'huge', quantity: 1e9, unit_price: 1e9 }] }),
      400,
      'parameter_invalid',
      { param: 'lines[0].quantity' },
    );
    const big = { description: 'big', quantity: 1, unit_price: 9e14 };
    expectError(await createOrder({ lines: [big, big] }), 400, 'parameter_invalid', { param: 'lines' });
    expect(await orderCount()).toBe(before);
    // A purchase order may have no customer account; it takes the entity's base currency.
    const po = (
      await live
        .post('/v1/orders')
        .send({
          document_type: 'purchase_order',
          lines: [{ description: 'Steel', quantity: 10, unit_price: 4.5 }],
        })
        .expect(201)
    ).body;
    expect(po).toMatchObject({
      document_type: 'purchase_order',
      account_id: null,
      currency: 'USD',
      total: 45,
    });
    // The purchase-order route admits that one document type (omitted, it is the type).
    expectError(
      await live.post('/v1/purchase-orders').send({ document_type: 'quote', account_id: accountId }),
      400,
      'parameter_invalid',
      { param: 'document_type' },
    );
    const viaRoute = (
      await live
        .post('/v1/purchase-orders')
        .send({ document_type: 'purchase_order', account_id: null })
        .expect(201)
    ).body;
    expect(viaRoute).toMatchObject({ document_type: 'purchase_order', account_id: null });
    expectError(await live.get('/v1/orders/not-a-uuid'), 404, 'not_found');
    expectError(await live.get('/v1/orders?limit=0'), 400, 'parameter_invalid', { param: 'limit' });
    expectError(await live.get('/v1/orders?sort=amount'), 400, 'parameter_invalid', { param: 'sort' });
    expectError(await live.get('/v1/orders?document_type=memo'), 400, 'parameter_invalid', {
      param: 'document_type',
    });
    expectError(await live.get('/v1/orders?order_status=open'), 400, 'parameter_invalid', {
      param: 'order_status',
    });
    expectError(await live.get('/v1/orders?payment_status=x'), 400, 'parameter_invalid', {
      param: 'payment_status',
    });
    expectError(await live.get('/v1/orders?created_after=yesterday'), 400, 'parameter_invalid', {
      param: 'created_after',
    });
    expectError(await live.get('/v1/orders?bogus=1'), 400, 'parameter_unknown', { param: 'bogus' });
    expectError(await live.get('/v1/orders?expand[]=nothing'), 400, 'invalid_expand', { param: 'expand[0]' });
  });

  it('moves through confirm, cancel, void and close with invalid_state naming the status', async () => {
    const order = await newOrder();
    for (const action of [
      'confirm',
      'cancel',
      'void',
      'close',
      'convert',
      'send',
      'customer-acknowledge-revision',
    ]) {
      expectError(
        await live.post(`/v1/orders/${order.id}/${action}`).send({ force: true }),
        400,
        'parameter_unknown',
        { param: 'force' },
      );
    }
    const confirmed = (await live.post(`/v1/orders/${order.id}/confirm`).expect(200)).body;
    expect(confirmed).toMatchObject({ order_status: 'confirmed' });
    expect(confirmed.confirmed_at).toEqual(expect.any(String));
    expectError(await live.post(`/v1/orders/${order.id}/confirm`), 409, 'invalid_state', {
      hint: expect.stringContaining("'confirmed'"),
    });
    const cancelled = (await live.post(`/v1/orders/${order.id}/cancel`).expect(200)).body;
    expect(cancelled).toMatchObject({ order_status: 'cancelled', amount_due: 0 });
    expectError(await live.post(`/v1/orders/${order.id}/cancel`), 409, 'invalid_state', {
      hint: expect.stringContaining("'cancelled'"),
    });
    expectError(await live.post(`/v1/orders/${order.id}/void`), 409, 'invalid_state', {
      hint: expect.stringContaining("'cancelled'"),
    });
    expectError(
      await live.post(`/v1/orders/${order.id}/lines`).send({ product_id: productId, quantity: 1 }),
      409,
      'invalid_state',
    );
    expect(await eventsOf(order.id)).toEqual(['order.created', 'order.confirmed', 'order.cancelled']);

    const other = await newOrder();
    expectError(await live.post(`/v1/orders/${other.id}/void`), 409, 'invalid_state', {
      hint: expect.stringContaining("'draft'"),
    });
    await live.post(`/v1/orders/${other.id}/confirm`).expect(200);
    expect((await live.post(`/v1/orders/${other.id}/void`).expect(200)).body).toMatchObject({
      order_status: 'voided',
    });
    expect(await eventsOf(other.id)).toEqual(['order.created', 'order.confirmed', 'order.voided']);
    await expectEvent(app, 'order.voided', { id: other.id, order_status: 'voided' });

    const third = await newOrder();
    expectError(await live.post(`/v1/orders/${third.id}/close`), 409, 'invalid_state');
    await live.post(`/v1/orders/${third.id}/confirm`).expect(200);
    expect((await live.post(`/v1/orders/${third.id}/close`).expect(200)).body).toMatchObject({
      order_status: 'closed',
    });

    const empty = (await createOrder({}).expect(201)).body;
    expectError(await live.post(`/v1/orders/${empty.id}/confirm`), 409, 'invalid_state', { param: 'lines' });
    expectError(await live.post(`/v1/orders/0190a000-0000-7000-8000-000000000000/confirm`), 404, 'not_found');
  });

  it('edits lines of a draft: add, update, remove, replace, with order.line.* events', async () => {
    const order = await newOrder();
    const added = (
      await live
        .post(`/v1/orders/${order.id}/lines`)
        .send({ description: 'Setup', quantity: 1, unit_price: 10 })
        .expect(201)
    ).body;
    expect(added.lines).toHaveLength(2);
    expect(added).toMatchObject({ total: 60 });
    const lineId = added.lines[1].id;
    const updated = (
      await live
        .patch(`/v1/orders/${order.id}/lines/${lineId}`)
        .send({ quantity: 3, tax_rate: 10 })
        .expect(200)
    ).body;
    expect(updated.lines[1]).toMatchObject({ quantity: 3, unit_price: 10, tax_total: 3, total: 33 });
    expect(updated).toMatchObject({ subtotal: 80, tax_total: 3, total: 83 });
    expectError(
      await live.patch(`/v1/orders/${order.id}/lines/${lineId}`).send({ quantity: 0 }),
      400,
      'parameter_invalid',
      { param: 'quantity' },
    );
    expectError(
      await live
        .patch(`/v1/orders/${order.id}/lines/${lineId}`)
        .send({ product_id: '0190a000-0000-7000-8000-000000000000' }),
      400,
      'parameter_invalid',
      { param: 'product_id' },
    );
    const removed = (await live.delete(`/v1/orders/${order.id}/lines/${lineId}`).expect(200)).body;
    expect(removed.lines).toHaveLength(1);
    expect(removed.total).toBe(50);
    expectError(await live.delete(`/v1/orders/${order.id}/lines/${lineId}`), 404, 'not_found');
    const other = await newOrder();
    expectError(await live.delete(`/v1/orders/${other.id}/lines/${order.lines[0].id}`), 404, 'not_found');
    const replaced = (
      await live
        .patch(`/v1/orders/${order.id}`)
        .send({ lines: [{ description: 'Only', quantity: 2, unit_price: 1.25 }], notes: 'n' })
        .expect(200)
    ).body;
    expect(replaced).toMatchObject({ total: 2.5, notes: 'n' });
    expect(replaced.lines).toHaveLength(1);
    expectError(
      await live
        .patch(`/v1/orders/${order.id}`)
        .send({ lines: [{ quantity: -1, unit_price: 1, description: 'x' }] }),
      400,
      'parameter_invalid',
      { param: 'lines[0].quantity' },
    );
    expect(await eventsOf(order.id)).toEqual([
      'order.created',
      'order.line.added',
      'order.line.updated',
      'order.line.removed',
      'order.updated',
    ]);
  });

  it('converts a quote to a sales order and the sales order to an invoice', async () => {
    const quote = await newOrder({ document_type: 'quote' });
    const so = (await live.post(`/v1/orders/${quote.id}/convert`).expect(200)).body;
    expect(so).toMatchObject({
      document_type: 'sales_order',
      order_status: 'draft',
      source_order_id: quote.id,
      total: quote.total,
    });
    expect(so.lines[0]).toMatchObject({ product_id: productId, unit_price: 25, quantity: 2 });
    expect((await live.get(`/v1/orders/${quote.id}`).expect(200)).body).toMatchObject({
      order_status: 'closed',
      converted_to_id: so.id,
    });
    expectError(await live.post(`/v1/orders/${quote.id}/convert`), 409, 'invalid_state');
    expectError(await live.post(`/v1/orders/${so.id}/convert`), 409, 'invalid_state', {
      hint: expect.stringContaining("'draft'"),
    });
    await live.post(`/v1/orders/${so.id}/confirm`).expect(200);
    const invoice = (await live.post(`/v1/orders/${so.id}/convert`).expect(200)).body;
    expect(invoice).toMatchObject({
      document_type: 'invoice',
      order_status: 'draft',
      source_order_id: so.id,
      total: 50,
    });
    expect((await live.get(`/v1/orders/${so.id}`).expect(200)).body).toMatchObject({
      order_status: 'confirmed',
      converted_to_id: invoice.id,
    });
    expectError(await live.post(`/v1/orders/${invoice.id}/convert`), 409, 'invalid_state');
    expect(await eventsOf(quote.id)).toEqual(['order.created', 'order.converted']);
    expect(await eventsOf(invoice.id)).toEqual(['order.created', 'invoice.created']);
    const ret = await newOrder({ document_type: 'return' });
    expectError(await live.post(`/v1/orders/${ret.id}/convert`), 409, 'invalid_state');
  });

  it('keeps a priced order unchanged when its pricing policy is deleted', async () => {
    const policy = (
      await live
        .post('/v1/pricing-policies')
        .send({ name: 'Orders Co 20%', kind: 'percentage_off', value: 20, account_id: accountId })
        .expect(201)
    ).body;
    const order = await newOrder();
    expect(order.lines[0]).toMatchObject({ list_price: 25, unit_price: 20, pricing_policy_id: policy.id });
    expect(order).toMatchObject({ subtotal: 40, total: 40 });
    await live.delete(`/v1/pricing-policies/${policy.id}`).expect(200);
    const after = (await live.get(`/v1/orders/${order.id}`).expect(200)).body;
    expect(after).toEqual(order);
    // A quantity change keeps the price the line was created with.
    const changed = (
      await live.patch(`/v1/orders/${order.id}/lines/${order.lines[0].id}`).send({ quantity: 3 }).expect(200)
    ).body;
    expect(changed.lines[0]).toMatchObject({ unit_price: 20, pricing_policy_id: policy.id, total: 60 });
    expect((await newOrder()).lines[0]).toMatchObject({ unit_price: 25, pricing_policy_id: null });
  });

  it('marks a confirmed order revised when it changes after being sent, and gates fulfillment until acknowledged', async () => {
    const order = await newOrder();
    const gate = (id: string) => live.post(`/v1/test-fulfillment-gate/${id}`);
    expectError(await gate(order.id), 422, 'order_not_confirmed', { param: 'order_id' });
    await live.post(`/v1/orders/${order.id}/confirm`).expect(200);
    expect((await gate(order.id).expect(200)).body).toEqual({ ready: true });
    // A change before sending is not a revision.
    const before = (
      await live.patch(`/v1/orders/${order.id}/lines/${order.lines[0].id}`).send({ quantity: 3 }).expect(200)
    ).body;
    expect(before.revision).toMatchObject({ revised: false, acknowledged: true, revision_count: 0 });
    expectError(
      await live.post(`/v1/orders/${order.id}/customer-acknowledge-revision`),
      409,
      'invalid_state',
    );
    const sent = (await live.post(`/v1/orders/${order.id}/send`).expect(200)).body;
    expect(sent.sent_to_customer_at).toEqual(expect.any(String));
    const revised = (
      await live
        .post(`/v1/orders/${order.id}/lines`)
        .send({ description: 'Rush fee', quantity: 1, unit_price: 15 })
        .expect(201)
    ).body;
    expect(revised).toMatchObject({
      total: 90,
      revision: { revised: true, acknowledged: false, revision_count: 1, acknowledged_total: null },
    });
    expectError(await gate(order.id), 409, 'revision_unacknowledged');
    const acked = (await live.post(`/v1/orders/${order.id}/customer-acknowledge-revision`).expect(200)).body;
    expect(acked).toMatchObject({
      id: order.id,
      object: 'order',
      revision: { revised: true, acknowledged: true, acknowledged_total: 90 },
    });
    expect(acked.revision.acknowledged_at).toEqual(expect.any(String));
    expectError(
      await live.post(`/v1/orders/${order.id}/customer-acknowledge-revision`),
      409,
      'invalid_state',
    );
    await gate(order.id).expect(200);
    expect(await eventsOf(order.id)).toEqual([
      'order.created',
      'order.confirmed',
      'order.line.updated',
      'order.updated',
      'order.line.added',
      'order.revised',
      'order.revision_acknowledged',
    ]);
    await expectEvent(app, 'order.revised', {
      id: order.id,
      revision: expect.objectContaining({ revised: true }),
    });
    await expectEvent(app, 'order.revision_acknowledged', {
      id: order.id,
      revision: expect.objectContaining({ revised: true, acknowledged: true, acknowledged_total: 90 }),
    });
    const quote = await newOrder({ document_type: 'quote' });
    expectError(await gate(quote.id), 422, 'order_not_confirmed');
    expectError(await gate('0190a000-0000-7000-8000-000000000000'), 404, 'not_found');
  });

  it('lets fulfillment mark a confirmed sales order fulfilled, then it can be closed', async () => {
    const orders = app.get(SalesOrders);
    const asLive = <T>(fn: () => Promise<T>) => asEntity(app, fn);
    const order = await newOrder();
    await expect(asLive(() => orders.markFulfilled(order.id))).rejects.toMatchObject({
      code: 'invalid_state',
    });
    await live.post(`/v1/orders/${order.id}/confirm`).expect(200);
    expect(await asLive(() => orders.markFulfilled(order.id))).toMatchObject({
      order_status: 'fulfilled',
      fulfilled_at: expect.any(String),
    });
    expectError(
      await live.post(`/v1/orders/${order.id}/lines`).send({ description: 'x', quantity: 1, unit_price: 1 }),
      409,
      'invalid_state',
      { hint: expect.stringContaining("'fulfilled'") },
    );
    const invoice = (await live.post(`/v1/orders/${order.id}/convert`).expect(200)).body;
    expect(invoice).toMatchObject({ document_type: 'invoice', source_order_id: order.id });
    expect((await live.post(`/v1/orders/${order.id}/close`).expect(200)).body).toMatchObject({
      order_status: 'closed',
    });
    const quote = await newOrder({ document_type: 'quote' });
    await live.post(`/v1/orders/${quote.id}/confirm`).expect(200);
    await expect(asLive(() => orders.markFulfilled(quote.id))).rejects.toMatchObject({
      code: 'invalid_state',
    });
  });

  it('serves the seeded order fixtures', async () => {
    type Items = { id: string; items: { id: string; product_id: string; quantity: number }[] };
    const f = app.seed.fixtures as {
      quote_id: string;
      sales_order: Items;
      revised_order: Items;
      serial_order: Record<string, unknown>;
      test_order_id: string;
    };
    expect((await live.get(`/v1/orders/${f.quote_id}`).expect(200)).body).toMatchObject({
      document_type: 'quote',
      order_status: 'draft',
    });
    for (const name of ['sales_order', 'revised_order']) {
      const fixture = f[name as 'sales_order' | 'revised_order'];
      expect(fixture.items).toHaveLength(2);
      const order = (await live.get(`/v1/orders/${fixture.id}`).expect(200)).body;
      expect(order).toMatchObject({ document_type: 'sales_order', order_status: 'confirmed' });
      expect(fixture.items).toEqual(
        order.lines.map((l: { id: string; product_id: string }) => ({
          id: l.id,
          product_id: l.product_id,
          quantity: 3,
        })),
      );
    }
    await live.post(`/v1/test-fulfillment-gate/${f.sales_order.id}`).expect(200);
    expectError(
      await live.post(`/v1/test-fulfillment-gate/${f.revised_order.id}`),
      409,
      'revision_unacknowledged',
    );
    const serial = (await live.get(`/v1/orders/${f.serial_order.id}`).expect(200)).body;
    expect(serial).toMatchObject({ order_status: 'confirmed' });
    expect(f.serial_order).toEqual({
      id: serial.id,
      item_id: serial.lines[0].id,
      product_id: serial.lines[0].product_id,
      // The inventory seed allocates two serials to the line.
      serials: [expect.any(String), expect.any(String)],
    });
    const test = api(app, app.seed.entities.primary.keys.test);
    expect((await test.get(`/v1/orders/${f.test_order_id}`).expect(200)).body).toMatchObject({
      livemode: false,
      order_status: 'confirmed',
      document_type: 'sales_order',
    });
    expectError(await live.get(`/v1/orders/${f.test_order_id}`), 404, 'not_found');
  });

  it('attaches and detaches tags', async () => {
    const order = await newOrder();
    const tagId = app.seed.fixtures.tag_id as string;
    const tagged = (await live.post(`/v1/orders/${order.id}/tags`).send({ tag_id: tagId }).expect(200)).body;
    expect(tagged.tag_ids).toEqual([tagId]);
    await live.post(`/v1/orders/${order.id}/tags`).send({ tag_id: tagId }).expect(200);
    expect((await live.get(`/v1/orders/${order.id}`).expect(200)).body.tag_ids).toEqual([tagId]);
    expectError(
      await live.post(`/v1/orders/${order.id}/tags`).send({ tag_id: '0190a000-0000-7000-8000-000000000000' }),
      400,
      'parameter_invalid',
      { param: 'tag_id' },
    );
    expectError(await live.post(`/v1/orders/${order.id}/tags`).send({}), 400, 'parameter_missing', {
      param: 'tag_id',
    });
    const untagged = (await live.delete(`/v1/orders/${order.id}/tags/${tagId}`).expect(200)).body;
    expect(untagged.tag_ids).toEqual([]);
    expectError(await live.delete(`/v1/orders/${order.id}/tags/${tagId}`), 404, 'not_found');
    expect(await eventsOf(order.id)).toEqual(['order.created', 'order.updated', 'order.updated']);
  });

  it('isolates orders by entity and mode', async () => {
    const order = await newOrder();
    const test = api(app, app.seed.entities.primary.keys.test);
    const other = api(app, app.seed.entities.secondary.keys.live);
    for (const client of [test, other]) {
      expectError(await client.get(`/v1/orders/${order.id}`), 404, 'not_found');
      expectError(await client.patch(`/v1/orders/${order.id}`).send({ notes: 'x' }), 404, 'not_found');
      expectError(await client.post(`/v1/orders/${order.id}/confirm`), 404, 'not_found');
      expectError(
        await client
          .post(`/v1/orders/${order.id}/lines`)
          .send({ description: 'x', quantity: 1, unit_price: 1 }),
        404,
        'not_found',
      );
      expectError(await client.post(`/v1/test-fulfillment-gate/${order.id}`), 404, 'not_found');
      const listed = (await client.get('/v1/orders?limit=100').expect(200)).body.data.map((o: Order) => o.id);
      expect(listed).not.toContain(order.id);
      // Another entity's account and product are unknown here.
      expectError(
        await client.post('/v1/orders').send({ account_id: accountId, lines: [] }),
        400,
        'parameter_invalid',
        { param: 'account_id' },
      );
    }
    const testAccount = (await test.post('/v1/accounts').send({ name: 'test acct' }).expect(201)).body.id;
    expectError(
      await test
        .post('/v1/orders')
        .send({ account_id: testAccount, lines: [{ product_id: productId, quantity: 1 }] }),
      400,
      'parameter_invalid',
      { param: 'lines[0].product_id' },
    );
    const primary = app.seed.entities.primary.id;
    await live.get(`/v1/entities/${primary}/orders/${order.id}`).expect(200);
    expectError(
      await live.get(`/v1/entities/${app.seed.entities.secondary.id}/orders/${order.id}`),
      403,
      'entity_isolation_violation',
    );
  });

  it('honours ETags: If-None-Match on retrieve, If-Match on updates', async () => {
    const order = await newOrder();
    const got = await live.get(`/v1/orders/${order.id}`).expect(200);
    const etag = got.headers.etag as string;
    expect(etag).toMatch(/^W\//);
    await live.get(`/v1/orders/${order.id}`).set('If-None-Match', etag).expect(304);
    expectError(
      await live.patch(`/v1/orders/${order.id}`).set('If-Match', 'W/"999"').send({ notes: 'x' }),
      412,
      'precondition_failed',
    );
    const updated = await live
      .patch(`/v1/orders/${order.id}`)
      .set('If-Match', etag)
      .send({ notes: 'x' })
      .expect(200);
    expect(updated.headers.etag).not.toBe(etag);
  });

  it('refuses a key without the orders scopes', async () => {
    const readOnly = api(app, app.seed.entities.primary.keys.read_only);
    await readOnly.get('/v1/orders').expect(200);
    expectError(
      await readOnly.post('/v1/orders').send({ account_id: accountId }),
      403,
      'insufficient_scope',
      { required: 'orders:write' },
    );
  });
});
