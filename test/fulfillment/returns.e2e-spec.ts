import { randomUUID } from 'node:crypto';
import { OperatorService } from '#platform/auth/operator.service';
import { api, expectError } from '../support/http';
import { expectEvent } from '../support/expect-event';
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

  /** A return authorised through POST /returns for units of a shipped package. */
  const returnOf = async (pkg: { order_id: string; items: { order_item_id: string }[] }, quantity: number) =>
    (
      await live
        .post('/v1/returns')
        .send({
          account_id: fx.accountId,
          order_id: pkg.order_id,
          lines: [{ order_item_id: pkg.items[0].order_item_id, quantity }],
          reason: 'Not needed',
        })
        .expect(201)
    ).body.id as string;
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
    const ret = await returnOf(pkg, 3);
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
    const ret = await returnOf(pkg, 2);
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
      { hint: `No return with id '${fx.salesOrder.id}' exists for this entity and mode.` },
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
    const ret = await returnOf(pkg, 1);
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
    const noReturn = (id: string) => ({ hint: `No return with id '${id}' exists for this entity and mode.` });
    for (const key of [app.seed.entities.primary.keys.test, app.seed.entities.secondary.keys.live]) {
      expectError(
        await api(app, key).post(`/v1/returns/${ret}/receive`).send(body),
        404,
        'not_found',
        noReturn(ret),
      );
      expectError(await api(app, key).get(`/v1/returns/${ret}/receipts`), 404, 'not_found', noReturn(ret));
    }
    // An id no order has: the answer names a return, what the route looks for.
    const unknown = randomUUID();
    expectError(
      await live.post(`/v1/returns/${unknown}/receive`).send(body),
      404,
      'not_found',
      noReturn(unknown),
    );
    expectError(await live.get(`/v1/returns/${unknown}/receipts`), 404, 'not_found', noReturn(unknown));
    await live.post(`/v1/returns/${ret}/receive`).send(body).expect(200);
  });

  /** A key of the primary entity holding only the returns scopes. */
  const returnsOnly = async () =>
    api(
      app,
      (
        await app.get(OperatorService).createKey({
          entityCode: app.seed.entities.primary.code,
          mode: 'live',
          name: `returns only ${Date.now()}`,
          scopes: ['returns:read', 'returns:write'],
        })
      ).secret,
    );
  /** The return.* events about a return (return.received carries the receipt, with return_id). */
  const returnTypes = async (id: string) =>
    (await outbox(app).all())
      .filter((e) => e.type.startsWith('return.'))
      .filter((e) => e.data.object.id === id || e.data.object.return_id === id)
      .map((e) => e.type);

  it('runs the returns workflow with returns:* scopes alone, and an orders key is refused', async () => {
    const client = await returnsOnly();
    const product = await newProduct(live);
    await stock(live, product, fx.locationId, 10, 5);
    const pkg = await shipped(product, 3);
    const line = pkg.items[0].order_item_id as string;
    const body = {
      account_id: fx.accountId,
      order_id: pkg.order_id,
      lines: [{ order_item_id: line, quantity: 2 }],
    };
    const created = (
      await client
        .post('/v1/returns')
        .send({ ...body, reason: 'Too big' })
        .expect(201)
    ).body;
    expect(created).toMatchObject({
      object: 'return',
      account_id: fx.accountId,
      order_id: pkg.order_id,
      status: 'open',
      reason: 'Too big',
      lines: [{ order_item_id: line, quantity: 2, received_quantity: 0 }],
      amount_received: 0,
      amount_refunded: 0,
      refunds: [],
    });
    // The return document underneath carries the order line's price.
    expect((await live.get(`/v1/orders/${created.id}`).expect(200)).body).toMatchObject({
      document_type: 'return',
      order_status: 'confirmed',
      source_order_id: pkg.order_id,
      total: 100,
    });
    expect((await client.get(`/v1/returns/${created.id}`).expect(200)).body).toEqual(created);
    const listed = (await client.get(`/v1/returns?order_id=${pkg.order_id}`).expect(200)).body;
    expect(listed).toMatchObject({ object: 'list', has_more: false, url: '/v1/returns' });
    expect(listed.data.map((r: { id: string }) => r.id)).toEqual([created.id]);

    // Over-return: 3 shipped, 2 on this return, so 2 more is too many.
    expectError(
      await client.post('/v1/returns').send({ ...body, lines: [{ order_item_id: line, quantity: 2 }] }),
      422,
      'quantity_exceeds_remaining',
      { param: 'lines[0].quantity', remaining_quantity: 1 },
    );
    const received = await client
      .post(`/v1/returns/${created.id}/receive`)
      .send({ package_id: pkg.id, items: [{ package_item_id: pkg.items[0].id, quantity: 1 }] })
      .expect(200);
    expect(received.body).toMatchObject({ object: 'return_receipt', return_id: created.id });
    expect((await client.get(`/v1/returns/${created.id}`).expect(200)).body).toMatchObject({
      status: 'partially_received',
      lines: [{ received_quantity: 1 }],
      amount_received: 50,
    });
    // More than the return authorises is refused, however many units the package still has.
    expectError(
      await client
        .post(`/v1/returns/${created.id}/receive`)
        .send({ package_id: pkg.id, items: [{ package_item_id: pkg.items[0].id, quantity: 2 }] }),
      422,
      'quantity_exceeds_remaining',
      { param: 'items[0].quantity' },
    );
    expectError(await client.post(`/v1/returns/${created.id}/cancel`).send({}), 409, 'invalid_state');
    // The order was never invoiced: nothing was paid, so nothing is refunded.
    expectError(await client.post(`/v1/returns/${created.id}/refund`).send({}), 409, 'invalid_state');

    // The last unit: a second return, cancelled while nothing came back, frees it again.
    const second = (
      await client
        .post('/v1/returns')
        .send({ ...body, lines: [{ order_item_id: line, quantity: 1 }] })
        .expect(201)
    ).body;
    const cancelled = (await client.post(`/v1/returns/${second.id}/cancel`).send({}).expect(200)).body;
    expect(cancelled).toMatchObject({ status: 'cancelled' });
    expect(cancelled.cancelled_at).not.toBeNull();
    expect((await live.get(`/v1/orders/${second.id}`).expect(200)).body.order_status).toBe('cancelled');
    expectError(await client.post(`/v1/returns/${second.id}/cancel`).send({}), 409, 'invalid_state');
    await client
      .post('/v1/returns')
      .send({ ...body, lines: [{ order_item_id: line, quantity: 1 }] })
      .expect(201);

    expect(await returnTypes(created.id)).toEqual(['return.created', 'return.received']);
    expect(await returnTypes(second.id)).toEqual(['return.created', 'return.cancelled']);
    await expectEvent(app, 'return.created', { id: second.id, status: 'open' });
    await expectEvent(app, 'return.received', { object: 'return_receipt', return_id: created.id });
    await expectEvent(app, 'return.cancelled', { id: second.id, status: 'cancelled' });
    const filtered = async (query: string) =>
      (await client.get(`/v1/returns?${query}`).expect(200)).body.data.map((r: { id: string }) => r.id);
    expect(await filtered(`order_id=${pkg.order_id}&status=cancelled`)).toEqual([second.id]);
    expect(await filtered(`order_id=${pkg.order_id}&status=partially_received`)).toEqual([created.id]);
    expect(
      await filtered(
        `account_id=${fx.accountId}&created_after=${created.created_at}&created_before=${second.created_at}`,
      ),
    ).toEqual([]);
    expect(await filtered(`order_id=${pkg.order_id}&created_before=${second.created_at}`)).toEqual([
      created.id,
    ]);

    const ordersKey = api(app, app.seed.entities.primary.keys.orders_only);
    const refused = [
      [await ordersKey.post('/v1/returns').send(body), 'returns:write'],
      [await ordersKey.get('/v1/returns'), 'returns:read'],
      [await ordersKey.get(`/v1/returns/${created.id}`), 'returns:read'],
      [await ordersKey.post(`/v1/returns/${created.id}/cancel`).send({}), 'returns:write'],
      [await ordersKey.post(`/v1/returns/${created.id}/refund`).send({}), 'returns:write'],
    ] as const;
    for (const [res, required] of refused) expectError(res, 403, 'insufficient_scope', { required });
    expect(refused).toHaveLength(5);
    for (const key of [app.seed.entities.primary.keys.test, app.seed.entities.secondary.keys.live]) {
      expectError(await api(app, key).get(`/v1/returns/${created.id}`), 404, 'not_found');
      expectError(await api(app, key).post(`/v1/returns/${created.id}/cancel`).send({}), 404, 'not_found');
    }
  });

  it('refuses an order line listed twice, and a received item of an order line the return does not cover', async () => {
    const other = await newProduct(live);
    await stock(live, other, fx.locationId, 5, 12);
    const order = await confirmedOrder(live, fx.accountId, [
      { product_id: fx.productId, quantity: 1, unit_price: 50 },
      { product_id: other, quantity: 1, unit_price: 30 },
    ]);
    const packed = (
      await live
        .post('/v1/packages')
        .send({
          order_id: order.id,
          items: order.items.map((item: { id: string }) => ({ order_item_id: item.id, quantity: 1 })),
        })
        .expect(201)
    ).body;
    const pkg = (
      await live
        .post(`/v1/packages/${packed.id}/ship`)
        .send({ carrier: 'ups', tracking_number: `1Z${packed.id.slice(-8)}` })
        .expect(200)
    ).body;
    const [covered, uncovered] = order.items.map((item: { id: string }) =>
      pkg.items.find((p: { order_item_id: string }) => p.order_item_id === item.id),
    );
    const twice = { order_item_id: covered.order_item_id, quantity: 1 };
    expectError(
      await live
        .post('/v1/returns')
        .send({ account_id: fx.accountId, order_id: order.id, lines: [twice, twice] }),
      400,
      'parameter_invalid',
      { param: 'lines[1].order_item_id' },
    );
    const ret = await returnOf({ order_id: order.id, items: [covered] }, 1);
    expectError(
      await live.post(`/v1/returns/${ret}/receive`).send({
        package_id: pkg.id,
        items: [{ package_item_id: uncovered.id, quantity: 1 }],
      }),
      400,
      'parameter_invalid',
      { param: 'items[0].package_item_id' },
    );
    expect((await live.get(`/v1/returns/${ret}/receipts`).expect(200)).body.data).toEqual([]);
  });

  it('refuses a return of another account, of a line that never shipped, or of another document', async () => {
    const pkg = await shipped(fx.productId, 1);
    const line = pkg.items[0].order_item_id as string;
    const other = (await live.post('/v1/accounts').send({ name: 'Return stranger' }).expect(201)).body.id;
    expectError(
      await live
        .post('/v1/returns')
        .send({ account_id: other, order_id: pkg.order_id, lines: [{ order_item_id: line, quantity: 1 }] }),
      400,
      'parameter_invalid',
      { param: 'account_id' },
    );
    expectError(
      await live.post('/v1/returns').send({
        account_id: fx.accountId,
        order_id: fx.quoteId,
        lines: [{ order_item_id: line, quantity: 1 }],
      }),
      400,
      'parameter_invalid',
      { param: 'order_id' },
    );
    const unshipped = await confirmedOrder(live, fx.accountId, [{ product_id: fx.productId, quantity: 2 }]);
    expectError(
      await live.post('/v1/returns').send({
        account_id: fx.accountId,
        order_id: unshipped.id,
        lines: [{ order_item_id: unshipped.items[0].id, quantity: 1 }],
      }),
      422,
      'quantity_exceeds_remaining',
      { param: 'lines[0].quantity', remaining_quantity: 0 },
    );
    expectError(
      await live.post('/v1/returns').send({
        account_id: fx.accountId,
        order_id: pkg.order_id,
        lines: [{ order_item_id: unshipped.items[0].id, quantity: 1 }],
      }),
      400,
      'parameter_invalid',
      { param: 'lines[0].order_item_id' },
    );
  });

  it('refunds through the original payment and to customer credit, never above what came back', async () => {
    const product = await newProduct(live);
    await stock(live, product, fx.locationId, 10, 5);
    const order = await confirmedOrder(live, fx.accountId, [
      { product_id: product, quantity: 2, unit_price: 50, tax_rate: 10 },
    ]);
    const pkg = (
      await live
        .post('/v1/packages')
        .send({ order_id: order.id, items: [{ order_item_id: order.items[0].id, quantity: 2 }] })
        .expect(201)
    ).body;
    await live
      .post(`/v1/packages/${pkg.id}/ship`)
      .send({ carrier: 'ups', tracking_number: '1ZREFUND' })
      .expect(200);
    const invoice = (await live.post(`/v1/orders/${order.id}/convert`).send({}).expect(200)).body;
    await live.post(`/v1/orders/${invoice.id}/confirm`).send({}).expect(200);
    const card = { number: '4242424242424242', exp_month: 12, exp_year: new Date().getUTCFullYear() + 2 };
    const first = (
      await live.post(`/v1/orders/${invoice.id}/payments`).send({ method: 'cash', amount: 20 }).expect(201)
    ).body;
    const ret = (
      await live
        .post('/v1/returns')
        .send({
          account_id: fx.accountId,
          order_id: order.id,
          lines: [{ order_item_id: order.items[0].id, quantity: 2 }],
        })
        .expect(201)
    ).body;
    const receipt = (
      await live
        .post(`/v1/returns/${ret.id}/receive`)
        .send({ package_id: pkg.id, items: [{ package_item_id: pkg.items[0].id, quantity: 1 }] })
        .expect(200)
    ).body;
    // Invoiced units keep their revenue at receipt; the credit memo of the refund takes it back.
    expect(receipt.revenue_reversed).toBe(0);
    expect(await entriesOf(app, 'RETURN', receipt.id)).toEqual([]);
    // 55 came back (50 and 10 % tax): no refund above it (a credit memo while the invoice is
    // partly paid is test/sales/customer-credit.e2e-spec.ts's).
    expectError(
      await live.post(`/v1/returns/${ret.id}/refund`).send({ amount: 60 }),
      422,
      'amount_exceeds_limit',
      { param: 'amount' },
    );
    const second = (
      await live.post(`/v1/orders/${invoice.id}/payments`).send({ method: 'card', card }).expect(201)
    ).body;
    expect(second.amount).toBe(90);
    // The returns scopes alone refund, though the refund moves payments and the invoice.
    const returnsKey = await returnsOnly();
    const refunded = (await returnsKey.post(`/v1/returns/${ret.id}/refund`).send({}).expect(200)).body;
    expect(refunded).toMatchObject({
      status: 'partially_received',
      amount_received: 55,
      amount_refunded: 55,
      refunds: [{ amount: 55, method: 'original_payment', invoice_id: invoice.id }],
    });
    // Newest payment first: the card payment gives the 55 back through the processor.
    const [cardRefund] = (await live.get(`/v1/payments/${second.id}/refunds`).expect(200)).body.data;
    expect(cardRefund).toMatchObject({ id: refunded.refunds[0].refund_ids[0], amount: 55 });
    expect((await live.get(`/v1/payments/${first.id}/refunds`).expect(200)).body.data).toEqual([]);
    expect((await live.get(`/v1/orders/${invoice.id}`).expect(200)).body).toMatchObject({
      total: 110,
      amount_credited: 55,
      amount_paid: 55,
      amount_due: 0,
      payment_status: 'paid',
    });
    const [memo] = await entriesOf(app, 'CREDIT_MEMO', refunded.refunds[0].id);
    const byRole = Object.fromEntries(memo.lines.map((l) => [l.role, Number(l.debit) - Number(l.credit)]));
    expect(byRole).toEqual({ revenue: 50, tax: 5, receivables: -55 });
    expect(await entriesOf(app, 'REFUND', cardRefund.id)).toHaveLength(1);

    await live
      .post(`/v1/returns/${ret.id}/receive`)
      .send({ package_id: pkg.id, items: [{ package_item_id: pkg.items[0].id, quantity: 1 }] })
      .expect(200);
    const credited = (
      await returnsKey.post(`/v1/returns/${ret.id}/refund`).send({ method: 'customer_credit' }).expect(200)
    ).body;
    expect(credited).toMatchObject({ status: 'refunded', amount_received: 110, amount_refunded: 110 });
    expect(credited.refunded_at).not.toBeNull();
    const [applied] = await entriesOf(app, 'CREDIT_APPLIED', credited.refunds[1].id);
    expect(
      Object.fromEntries(applied.lines.map((l) => [l.role, Number(l.debit) - Number(l.credit)])),
    ).toEqual({
      receivables: 55,
      customer_credit: -55,
    });
    expect((await live.get(`/v1/orders/${invoice.id}`).expect(200)).body).toMatchObject({
      amount_credited: 110,
      amount_paid: 0,
      amount_due: 0,
      payment_status: 'refunded',
    });
    expect((await live.get(`/v1/orders/${ret.id}`).expect(200)).body).toMatchObject({
      order_status: 'fulfilled',
      payment_status: 'refunded',
      amount_refunded: 110,
    });
    expectError(await live.post(`/v1/returns/${ret.id}/refund`).send({}), 409, 'invalid_state');
    expect(await returnTypes(ret.id)).toEqual([
      'return.created',
      'return.received',
      'return.refunded',
      'return.received',
      'return.refunded',
    ]);
    // Two units of 50.00 with 10 % tax, each refunded once it came back: 55.00, then 110.00 in all.
    await expectEvent(app, 'return.refunded', { id: ret.id, status: 'refunded', amount_refunded: 110 });
  });
});
