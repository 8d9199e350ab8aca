import { asEntity } from '../support/as-entity';
import { LedgerPostingService } from '#contexts/accounting';
import { StockMovement, StockMovementObserverRegistry, StockService } from '#contexts/inventory';
import { newId } from '#platform/persistence/ids';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { api, expectError } from '../support/http';
import { expectEvent } from '../support/expect-event';
import { outbox } from '../support/outbox';
import { startTestApp, TestApp } from '../support/test-app';
import { Client, fixturesOf, ledgerMismatches, newLocation, newProduct } from './support';

describe('inventory: purchase-order receiving, transfers, serials, shipping', () => {
  let app: TestApp;
  let live: Client;
  let test: Client;
  let other: Client;
  let locationId: string;
  const observed: StockMovement[] = [];

  beforeAll(async () => {
    app = await startTestApp();
    live = api(app, app.seed.entities.primary.keys.live);
    test = api(app, app.seed.entities.primary.keys.test);
    other = api(app, app.seed.entities.secondary.keys.live);
    locationId = fixturesOf(app).locationId;
    app.get(StockMovementObserverRegistry).register(async () => async (movements) => {
      observed.push(...movements);
    });
  });
  afterAll(() => app.close());

  /** Runs `fn` as the primary entity's live caller, in one transaction (as another context would). */
  const asPrimary = <T>(fn: () => Promise<T>) => asEntity(app, () => app.get(TransactionHost).run(fn));

  const balanceOf = async (productId: string, location = locationId) =>
    (await live.get(`/v1/inventory/balances?product_id=${productId}&location_id=${location}`).expect(200))
      .body.data[0];

  const purchaseOrder = async (lines: { product_id: string; quantity: number; unit_price: number }[]) => {
    const po = await live.post('/v1/purchase-orders').send({ lines }).expect(201);
    expect(po.body.document_type).toBe('purchase_order');
    return (await live.post(`/v1/purchase-orders/${po.body.id}/confirm`).send({}).expect(200)).body;
  };

  const salesOrder = async (productId: string, quantity: number) => {
    const order = await live
      .post('/v1/orders')
      .send({
        document_type: 'sales_order',
        account_id: app.seed.fixtures.account_id,
        lines: [{ product_id: productId, quantity }],
      })
      .expect(201);
    return (await live.post(`/v1/orders/${order.body.id}/confirm`).send({}).expect(200)).body;
  };

  it('serves the seed: a partially received purchase order and two allocated serials', async () => {
    const f = fixturesOf(app);
    const po = await live.get(`/v1/purchase-orders/${f.purchaseOrderId}`).expect(200);
    expect(po.body).toMatchObject({ document_type: 'purchase_order', order_status: 'confirmed' });
    const receipts = await live.get(`/v1/inventory/transactions?source_id=${f.purchaseOrderId}`).expect(200);
    expect(receipts.body.data).toHaveLength(1);
    expect(receipts.body.data[0]).toMatchObject({
      type: 'receipt',
      quantity: 4,
      order_id: f.purchaseOrderId,
    });
    expect(f.serialOrder.serials).toHaveLength(2);
    const serials = await live
      .get(`/v1/inventory/serials?product_id=${f.serialOrder.product_id}&status=allocated`)
      .expect(200);
    expect(serials.body.data.map((s: { serial_number: string }) => s.serial_number).sort()).toEqual(
      [...f.serialOrder.serials].sort(),
    );
    expect(serials.body.data[0]).toMatchObject({
      order_id: f.serialOrder.id,
      order_item_id: f.serialOrder.item_id,
      location_id: locationId,
    });
  });

  it('receives a purchase order partially then fully: stock at cost, PO_RECEIPT, on_order, quantity_exceeds_remaining', async () => {
    const productId = await newProduct(live);
    const po = await purchaseOrder([{ product_id: productId, quantity: 10, unit_price: 3 }]);
    const lineId = po.lines[0].id as string;
    expect(await balanceOf(productId)).toMatchObject({ on_order: 10, on_hand: 0 });

    const first = await live
      .post(`/v1/purchase-orders/${po.id}/receive`)
      .send({ lines: [{ order_item_id: lineId, quantity: 4, location_id: locationId }] })
      .expect(200);
    expect(first.body).toMatchObject({
      object: 'purchase_order_receipt',
      purchase_order_id: po.id,
      status: 'partially_received',
      total_value: 12,
      lines: [{ order_item_id: lineId, quantity: 4, unit_cost: 3, value: 12 }],
    });
    expect(await balanceOf(productId)).toMatchObject({ on_order: 6, on_hand: 4, value: 12, unit_cost: 3 });
    const entry = await live.get(`/v1/journal-entries/${first.body.journal_entry_id}`).expect(200);
    expect(entry.body).toMatchObject({ source_type: 'PO_RECEIPT', source_id: first.body.id });
    const accounts = app.seed.fixtures.ledger_accounts as Record<string, string>;
    expect(
      entry.body.lines.find((l: { account_id: string }) => l.account_id === accounts.inventory),
    ).toMatchObject({ debit_amount: 12 });

    const tooMany = await live
      .post(`/v1/purchase-orders/${po.id}/receive`)
      .send({ lines: [{ order_item_id: lineId, quantity: 7, location_id: locationId }] });
    expectError(tooMany, 422, 'quantity_exceeds_remaining', {
      param: 'lines[0].quantity',
      remaining_quantity: 6,
    });
    const split = await live.post(`/v1/purchase-orders/${po.id}/receive`).send({
      lines: [
        { order_item_id: lineId, quantity: 3, location_id: locationId },
        { order_item_id: lineId, quantity: 4, location_id: locationId },
      ],
    });
    expectError(split, 422, 'quantity_exceeds_remaining', { param: 'lines[1].quantity' });

    const rest = await live
      .post(`/v1/purchase-orders/${po.id}/receive`)
      .send({ lines: [{ order_item_id: lineId, quantity: 6, location_id: locationId, unit_cost: 5 }] })
      .expect(200);
    expect(rest.body.status).toBe('received');
    expect(await balanceOf(productId)).toMatchObject({ on_order: 0, on_hand: 10, value: 42, unit_cost: 4.2 });
    expect((await live.get(`/v1/purchase-orders/${po.id}`).expect(200)).body.order_status).toBe('fulfilled');
    expectError(
      await live
        .post(`/v1/purchase-orders/${po.id}/receive`)
        .send({ lines: [{ order_item_id: lineId, quantity: 1, location_id: locationId }] }),
      409,
      'invalid_state',
    );
    const ofPo = async (type: string) =>
      (await outbox(app).all(type)).filter(
        (e) => e.data.object.purchase_order_id === po.id || e.data.object.id === po.id,
      );
    expect(await ofPo('inventory.received')).toHaveLength(2);
    expect(await ofPo('purchasing.purchase_order.received')).toHaveLength(2);
    await expectEvent(app, 'inventory.received', {
      object: 'purchase_order_receipt',
      purchase_order_id: po.id,
      status: 'received',
      total_value: 30,
      lines: [expect.objectContaining({ product_id: productId, quantity: 6, unit_cost: 5, value: 30 })],
    });
    await expectEvent(app, 'purchasing.purchase_order.received', { id: po.id, order_status: 'fulfilled' });
    expect(observed.filter((m) => m.orderId === po.id).map((m) => [m.type, m.quantity])).toEqual([
      ['receipt', 4],
      ['receipt', 6],
    ]);
  });

  it('validates receipts and answers to inventory or purchasing scopes', async () => {
    const productId = await newProduct(live);
    const po = await purchaseOrder([{ product_id: productId, quantity: 2, unit_price: 1 }]);
    const line = { order_item_id: po.lines[0].id, quantity: 1, location_id: locationId };
    const receive = (body: object, client: Client = live) =>
      client.post(`/v1/purchase-orders/${po.id}/receive`).send(body);
    expectError(await receive({ lines: [] }), 400, 'parameter_invalid', { param: 'lines' });
    expectError(await receive({ lines: [{ ...line, order_item_id: newId() }] }), 400, 'parameter_invalid', {
      param: 'lines[0].order_item_id',
    });
    expectError(await receive({ lines: [{ ...line, location_id: newId() }] }), 400, 'parameter_invalid', {
      param: 'lines[0].location_id',
    });
    expectError(await receive({ lines: [{ ...line, quantity: 0 }] }), 400, 'parameter_invalid', {
      param: 'lines[0].quantity',
    });
    expectError(
      await live.post(`/v1/purchase-orders/${newId()}/receive`).send({ lines: [line] }),
      404,
      'not_found',
    );
    const sales = await salesOrder(productId, 1);
    expectError(
      await live.post(`/v1/purchase-orders/${sales.id}/receive`).send({ lines: [line] }),
      404,
      'not_found',
    );
    expectError(await live.get(`/v1/purchase-orders/${sales.id}`), 404, 'not_found');
    for (const client of [other, test]) {
      expectError(await receive({ lines: [line] }, client), 404, 'not_found');
      expectError(await client.get(`/v1/purchase-orders/${po.id}`), 404, 'not_found');
    }
    const draft = await live
      .post('/v1/purchase-orders')
      .send({ lines: [{ product_id: productId, quantity: 1, unit_price: 1 }] })
      .expect(201);
    expectError(
      await live
        .post(`/v1/purchase-orders/${draft.body.id}/receive`)
        .send({ lines: [{ ...line, order_item_id: draft.body.lines[0].id }] }),
      409,
      'invalid_state',
    );
    expectError(
      await receive({ lines: [line] }, api(app, app.seed.entities.primary.keys.read_only)),
      403,
      'insufficient_scope',
      { required: 'inventory:write' },
    );

    const keyWith = async (...scopes: string[]) =>
      (
        await live
          .post(`/v1/entities/${app.seed.entities.primary.id}/api_keys`)
          .send({ name: scopes.join(' '), mode: 'live', scopes })
          .expect(201)
      ).body.secret as string;
    const purchasing = api(app, await keyWith('purchasing:read', 'purchasing:write'));
    await receive({ lines: [line] }, purchasing).expect(200);
    await purchasing.get(`/v1/purchase-orders/${po.id}`).expect(200);
    expect(
      (await purchasing.get('/v1/purchase-orders').expect(200)).body.data.every(
        (o: { document_type: string }) => o.document_type === 'purchase_order',
      ),
    ).toBe(true);
    const inventoryOnly = api(app, await keyWith('inventory:write'));
    await receive({ lines: [line] }, inventoryOnly).expect(200);
    expectError(await inventoryOnly.get(`/v1/purchase-orders/${po.id}`), 403, 'insufficient_scope', {
      required: 'orders:read',
    });
  });

  it('keeps allocated current through confirm, line changes and cancel', async () => {
    const productId = await newProduct(live);
    const order = await salesOrder(productId, 5);
    expect(await balanceOf(productId)).toMatchObject({ allocated: 5, on_hand: 0, available: -5 });
    await live.patch(`/v1/orders/${order.id}/lines/${order.lines[0].id}`).send({ quantity: 2 }).expect(200);
    expect((await balanceOf(productId)).allocated).toBe(2);
    await live.post(`/v1/orders/${order.id}/lines`).send({ product_id: productId, quantity: 4 }).expect(201);
    expect((await balanceOf(productId)).allocated).toBe(6);
    await live.post(`/v1/orders/${order.id}/cancel`).send({}).expect(200);
    // The balance only ever held the commitment: released, it holds nothing and is removed.
    expect(await balanceOf(productId)).toBeUndefined();
  });

  it('transfers between locations at cost with INVENTORY_TRANSFER', async () => {
    const productId = await newProduct(live);
    const second = await newLocation(live);
    await live
      .post('/v1/inventory/adjustments')
      .send({ product_id: productId, location_id: locationId, quantity: 3, unit_cost: 10, reason: 'in' })
      .expect(201);
    const res = await live
      .post('/v1/inventory/transfers')
      .send({ product_id: productId, from_location_id: locationId, to_location_id: second, quantity: 2 })
      .expect(201);
    expect(res.body).toMatchObject({
      object: 'inventory_transfer',
      quantity: 2,
      unit_cost: 10,
      value: 20,
      from_balance: { on_hand: 1, value: 10 },
      to_balance: { on_hand: 2, value: 20, location_id: second },
    });
    const entry = await live.get(`/v1/journal-entries/${res.body.journal_entry_id}`).expect(200);
    expect(entry.body.source_type).toBe('INVENTORY_TRANSFER');
    // 2 of the 3 units at 10.00 move: 20.00 leaves the first location and arrives at the second.
    await expectEvent(app, 'inventory.transferred', {
      object: 'inventory_transfer',
      id: res.body.id,
      quantity: 2,
      value: 20,
      to_balance: expect.objectContaining({ location_id: second, on_hand: 2 }),
    });
    const txs = await live.get(`/v1/inventory/transactions?source_id=${res.body.id}`).expect(200);
    expect(txs.body.data.map((t: { type: string; quantity: number }) => [t.type, t.quantity]).sort()).toEqual(
      [
        ['transfer_in', 2],
        ['transfer_out', -2],
      ],
    );
    expectError(
      await live
        .post('/v1/inventory/transfers')
        .send({ product_id: productId, from_location_id: locationId, to_location_id: second, quantity: 5 }),
      422,
      'insufficient_stock',
      { param: 'quantity' },
    );
    expectError(
      await live
        .post('/v1/inventory/transfers')
        .send({ product_id: productId, from_location_id: second, to_location_id: second, quantity: 1 }),
      400,
      'parameter_invalid',
      { param: 'to_location_id' },
    );
    expectError(
      await live
        .post('/v1/inventory/transfers')
        .send({ product_id: productId, from_location_id: locationId, to_location_id: newId(), quantity: 1 }),
      400,
      'parameter_invalid',
      { param: 'to_location_id' },
    );
    expectError(
      await other
        .post('/v1/inventory/transfers')
        .send({ product_id: productId, from_location_id: locationId, to_location_id: second, quantity: 1 }),
      400,
      'parameter_invalid',
      { param: 'product_id' },
    );
    expect(await ledgerMismatches(app)).toEqual([]);
  });

  it('receives serials, allocates them, ships and returns them; refuses illegal transitions', async () => {
    const productId = await newProduct(live, { serialTracked: true });
    const po = await purchaseOrder([{ product_id: productId, quantity: 3, unit_price: 50 }]);
    const lineId = po.lines[0].id as string;
    const receive = (serials: string[], quantity = serials.length) =>
      live.post(`/v1/purchase-orders/${po.id}/receive`).send({
        lines: [
          {
            order_item_id: lineId,
            quantity,
            location_id: locationId,
            serial_numbers: serials,
            lot_number: 'LOT-7',
          },
        ],
      });
    expectError(await receive(['SN-A'], 2), 400, 'parameter_invalid', { param: 'lines[0].serial_numbers' });
    expectError(await receive(['SN-A', 'SN-A']), 400, 'parameter_invalid', {
      param: 'lines[0].serial_numbers[1]',
    });
    await receive(['SN-A', 'SN-B', 'SN-C']).expect(200);
    const listed = await live.get(`/v1/inventory/serials?product_id=${productId}`).expect(200);
    expect(listed.body).toMatchObject({ object: 'list', total: 3, page: 1, per_page: 50, total_pages: 1 });
    const a = listed.body.data.find((s: { serial_number: string }) => s.serial_number === 'SN-A');
    expect(a).toMatchObject({
      object: 'serial_number',
      status: 'available',
      lot_number: 'LOT-7',
      location_id: locationId,
      order_id: po.id,
    });
    expect(a.received_at).toEqual(expect.any(String));
    for (const serial of ['SN-A', 'SN-B', 'SN-C'])
      await expectEvent(app, 'inventory.serial.created', {
        object: 'serial_number',
        product_id: productId,
        serial_number: serial,
        status: 'available',
        location_id: locationId,
        lot_number: 'LOT-7',
        order_id: po.id,
      });
    expectError(
      await live.post('/v1/inventory/adjustments').send({
        product_id: productId,
        location_id: locationId,
        quantity: 1,
        reason: 'x',
        serial_numbers: ['SN-A'],
      }),
      422,
      'serial_duplicate',
      { param: 'serial_numbers[0]' },
    );
    expectError(
      await live
        .post('/v1/inventory/adjustments')
        .send({ product_id: productId, location_id: locationId, quantity: 1, reason: 'no serial' }),
      400,
      'parameter_invalid',
      { param: 'serial_numbers' },
    );

    const order = await salesOrder(productId, 2);
    const itemId = order.lines[0].id as string;
    const allocate = (serials: string[]) =>
      live.post(`/v1/orders/${order.id}/lines/${itemId}/allocate-serials`).send({ serial_numbers: serials });
    const allocated = await allocate(['SN-A', 'SN-B']).expect(200);
    expect(allocated.body).toMatchObject({
      object: 'order_line_serials',
      order_id: order.id,
      order_item_id: itemId,
      quantity: 2,
    });
    expect(allocated.body.serials.map((s: { status: string }) => s.status)).toEqual([
      'allocated',
      'allocated',
    ]);
    expectError(await allocate(['SN-C']), 422, 'quantity_exceeds_remaining', { param: 'serial_numbers' });
    await live
      .post(`/v1/orders/${order.id}/lines/${itemId}/deallocate-serials`)
      .send({ serial_numbers: ['SN-B'] })
      .expect(200);
    const again = await allocate(['SN-A']);
    expectError(again, 409, 'invalid_state');
    expect(again.body.hint).toContain("'allocated'");
    expectError(await allocate(['SN-NOPE']), 400, 'parameter_invalid', { param: 'serial_numbers[0]' });
    expectError(
      await live
        .post(`/v1/orders/${order.id}/lines/${itemId}/deallocate-serials`)
        .send({ serial_numbers: ['SN-C'] }),
      422,
      'serial_not_allocated',
      { param: 'serial_numbers[0]' },
    );
    await allocate(['SN-B']).expect(200);
    const draft = await live
      .post('/v1/orders')
      .send({
        document_type: 'sales_order',
        account_id: app.seed.fixtures.account_id,
        lines: [{ product_id: productId, quantity: 1 }],
      })
      .expect(201);
    expectError(
      await live
        .post(`/v1/orders/${draft.body.id}/lines/${draft.body.lines[0].id}/allocate-serials`)
        .send({ serial_numbers: ['SN-C'] }),
      422,
      'order_not_confirmed',
    );
    expectError(
      await live
        .post(`/v1/orders/${order.id}/lines/${newId()}/allocate-serials`)
        .send({ serial_numbers: ['SN-C'] }),
      404,
      'not_found',
    );
    expectError(
      await other
        .post(`/v1/orders/${order.id}/lines/${itemId}/allocate-serials`)
        .send({ serial_numbers: ['SN-C'] }),
      404,
      'not_found',
    );

    const stock = app.get(StockService);
    await expect(
      asPrimary(() =>
        stock.assertSerialsAllocated({
          orderId: order.id,
          productId,
          serialNumbers: ['SN-A', 'SN-C'],
          param: 'items[0].serial_numbers',
        }),
      ),
    ).rejects.toMatchObject({
      code: 'serial_not_allocated',
      param: 'items[0].serial_numbers',
    });
    await asPrimary(() =>
      stock.assertSerialsAllocated({
        orderId: order.id,
        productId,
        serialNumbers: ['SN-A', 'SN-B'],
        param: 'p',
      }),
    );
    expect(await asPrimary(() => stock.currentUnitCost(productId, locationId))).toBe('50.0000');

    const packageId = newId();
    const cost = await asPrimary(async () => {
      const shipped = await stock.shipPackage({
        packageId,
        orderId: order.id,
        lines: [{ orderItemId: itemId, productId, locationId, quantity: 2, serialNumbers: ['SN-A', 'SN-B'] }],
      });
      await app.get(LedgerPostingService).post({
        source_type: 'FULFILLMENT',
        source_id: packageId,
        source_module: 'test',
        entry_date: new Date().toISOString().slice(0, 10),
        description: 'COGS',
        lines: [
          { role: 'cogs', debit: shipped.totalCost },
          { role: 'inventory', credit: shipped.totalCost },
        ],
      });
      return shipped;
    });
    expect(cost).toEqual({
      lines: [{ orderItemId: itemId, productId, quantity: 2, unitCost: '50.0000', value: '100.0000' }],
      totalCost: '100.0000',
    });
    expect(await balanceOf(productId)).toMatchObject({ on_hand: 1, allocated: 0 });
    const sold = await live.get(`/v1/inventory/serials?product_id=${productId}&status=sold`).expect(200);
    expect(sold.body.data).toHaveLength(2);
    expect(sold.body.data[0]).toMatchObject({ order_id: order.id });
    expect(sold.body.data[0].sold_at).toEqual(expect.any(String));
    await expect(
      asPrimary(() =>
        stock.shipPackage({
          packageId: newId(),
          orderId: order.id,
          lines: [{ orderItemId: itemId, productId, locationId, quantity: 1, serialNumbers: ['SN-C'] }],
        }),
      ),
    ).rejects.toMatchObject({ code: 'serial_not_allocated' });

    const returnId = newId();
    const returned = await asPrimary(async () => {
      const r = await stock.receiveReturn({
        returnId,
        orderId: order.id,
        lines: [
          {
            orderItemId: itemId,
            productId,
            locationId,
            quantity: 1,
            unitCost: '50.0000',
            serialNumbers: ['SN-A'],
            disposition: 'quarantined',
          },
          {
            orderItemId: itemId,
            productId,
            locationId,
            quantity: 1,
            unitCost: '50.0000',
            serialNumbers: ['SN-B'],
          },
        ],
      });
      await app.get(LedgerPostingService).post({
        source_type: 'COGS_REVERSAL',
        source_id: returnId,
        source_module: 'test',
        entry_date: new Date().toISOString().slice(0, 10),
        description: 'Return',
        lines: [
          { role: 'inventory', debit: r.totalValue },
          { role: 'cogs', credit: r.totalValue },
        ],
      });
      return r;
    });
    expect(returned).toEqual({ totalValue: '100.0000' });
    const quarantined = (
      await live.get(`/v1/inventory/serials?product_id=${productId}&status=quarantined`).expect(200)
    ).body.data[0];
    expect(quarantined).toMatchObject({ serial_number: 'SN-A' });
    expect(quarantined.returned_at).toEqual(expect.any(String));

    // PATCH moves a quarantined unit back; the state machine refuses what its table lacks.
    const restocked = await live
      .patch(`/v1/inventory/serials/${quarantined.id}`)
      .send({ status: 'available', warranty_status: 'active', warranty_end_date: '2030-01-31' })
      .expect(200);
    expect(restocked.body).toMatchObject({
      status: 'available',
      warranty_status: 'active',
      warranty_end_date: '2030-01-31',
    });
    // One event for the move out of quarantine, one for the warranty fields.
    await expectEvent(
      app,
      'inventory.serial.updated',
      { id: quarantined.id, serial_number: 'SN-A', status: 'available' },
      { previous: { status: 'quarantined' } },
    );
    await expectEvent(
      app,
      'inventory.serial.updated',
      { id: quarantined.id, status: 'available', warranty_status: 'active', warranty_end_date: '2030-01-31' },
      {
        previous: {
          warranty_status: quarantined.warranty_status,
          warranty_end_date: quarantined.warranty_end_date,
        },
      },
    );
    const refused = await live.patch(`/v1/inventory/serials/${quarantined.id}`).send({ status: 'damaged' });
    expectError(refused, 409, 'invalid_state');
    expect(refused.body.hint).toContain("'available'");
    expectError(
      await live.patch(`/v1/inventory/serials/${quarantined.id}`).send({ status: 'sold' }),
      400,
      'parameter_invalid',
      { param: 'status' },
    );
    expectError(
      await live.patch(`/v1/inventory/serials/${quarantined.id}`).send({ expiry_date: '2030-13-40' }),
      400,
      'parameter_invalid',
      { param: 'expiry_date' },
    );
    const one = await live.get(`/v1/inventory/serials/${quarantined.id}`).expect(200);
    expect(one.body.id).toBe(quarantined.id);
    for (const client of [other, test]) {
      expectError(await client.get(`/v1/inventory/serials/${quarantined.id}`), 404, 'not_found');
      expectError(
        await client.patch(`/v1/inventory/serials/${quarantined.id}`).send({ warranty_status: 'x' }),
        404,
        'not_found',
      );
      expect((await client.get(`/v1/inventory/serials?product_id=${productId}`).expect(200)).body.total).toBe(
        0,
      );
    }
    // Retiring by a decreasing adjustment: available -> end_of_life; a retired unit never comes back.
    await live
      .post('/v1/inventory/adjustments')
      .send({
        product_id: productId,
        location_id: locationId,
        quantity: -1,
        reason: 'scrapped',
        serial_numbers: ['SN-C'],
      })
      .expect(201);
    const retired = (await live.get(`/v1/inventory/serials?product_id=${productId}&q=sn-c`).expect(200)).body
      .data[0];
    expect(retired.status).toBe('end_of_life');
    expectError(
      await live.patch(`/v1/inventory/serials/${retired.id}`).send({ status: 'available' }),
      409,
      'invalid_state',
    );
    expect(await ledgerMismatches(app)).toEqual([]);
  });

  it('pages the serial list by number and filters it', async () => {
    const productId = await newProduct(live, { serialTracked: true });
    const second = await newLocation(live);
    const serials = Array.from({ length: 7 }, (_, i) => `PG-${String(i).padStart(2, '0')}`);
    await live
      .post('/v1/inventory/adjustments')
      .send({
        product_id: productId,
        location_id: locationId,
        quantity: 5,
        unit_cost: 1,
        reason: 'in',
        serial_numbers: serials.slice(0, 5),
      })
      .expect(201);
    await live
      .post('/v1/inventory/adjustments')
      .send({
        product_id: productId,
        location_id: second,
        quantity: 2,
        unit_cost: 1,
        reason: 'in',
        serial_numbers: serials.slice(5),
      })
      .expect(201);
    const base = `/v1/inventory/serials?product_id=${productId}`;
    const page2 = await live.get(`${base}&per_page=3&page=2`).expect(200);
    expect(page2.body).toMatchObject({ object: 'list', total: 7, page: 2, per_page: 3, total_pages: 3 });
    expect(Object.keys(page2.body).sort()).toEqual([
      'data',
      'object',
      'page',
      'per_page',
      'total',
      'total_pages',
    ]);
    expect(page2.body.data).toHaveLength(3);
    const page3 = await live.get(`${base}&per_page=3&page=3`).expect(200);
    expect(page3.body.data).toHaveLength(1);
    const beyond = await live.get(`${base}&per_page=3&page=9`).expect(200);
    expect(beyond.body).toMatchObject({ data: [], total: 7, page: 9 });
    const all = new Set(
      [
        ...(await live.get(`${base}&per_page=3&page=1`)).body.data,
        ...page2.body.data,
        ...page3.body.data,
      ].map((s: { id: string }) => s.id),
    );
    expect(all.size).toBe(7);
    expect((await live.get(`${base}&location_id=${second}`).expect(200)).body.total).toBe(2);
    const header = await live
      .get(`${base}&location_id=${second}`)
      .set('X-Location-Id', locationId)
      .expect(200);
    expect(header.body.total).toBe(5);
    expect((await live.get(base).set('X-Location-Id', second).expect(200)).body.total).toBe(2);
    expect((await live.get(`${base}&q=pg-0`).expect(200)).body.total).toBe(7);
    expect(
      (await live.get(`${base}&q=G-06`).expect(200)).body.data.map(
        (s: { serial_number: string }) => s.serial_number,
      ),
    ).toEqual(['PG-06']);
    expect((await live.get(`${base}&q=%25`).expect(200)).body.total).toBe(0);
    expect((await live.get(`${base}&status=available`).expect(200)).body.total).toBe(7);
    expect((await live.get(`${base}&status=sold`).expect(200)).body.total).toBe(0);
    for (const [query, param] of [
      ['page=0', 'page'],
      ['per_page=0', 'per_page'],
      ['per_page=251', 'per_page'],
      ['page=abc', 'page'],
      ['status=lost', 'status'],
      ['product_id=nope', 'product_id'],
    ])
      expectError(await live.get(`/v1/inventory/serials?${query}`), 400, 'parameter_invalid', { param });
    expectError(
      await live.get('/v1/inventory/serials').set('X-Location-Id', 'nope'),
      400,
      'parameter_invalid',
      { param: 'X-Location-Id' },
    );
    expect((await live.get(`${base}&per_page=250`).expect(200)).body.per_page).toBe(250);
    expectError(
      await api(app, app.seed.entities.primary.keys.orders_only).get('/v1/inventory/serials'),
      403,
      'insufficient_scope',
      { required: 'inventory:read' },
    );
  });

  it('records a build: components out at cost, the kit in carrying exactly their value', async () => {
    const a = await newProduct(live);
    const b = await newProduct(live, { serialTracked: true });
    const kit = await newProduct(live, { type: 'kit' });
    await live
      .post('/v1/inventory/adjustments')
      .send({ product_id: a, location_id: locationId, quantity: 5, unit_cost: 3, reason: 'in' })
      .expect(201);
    await live
      .post('/v1/inventory/adjustments')
      .send({
        product_id: b,
        location_id: locationId,
        quantity: 1,
        unit_cost: 4.5,
        reason: 'in',
        serial_numbers: ['B-1'],
      })
      .expect(201);
    const stock = app.get(StockService);
    const buildId = newId();
    const result = await asPrimary(() =>
      stock.recordBuild({
        buildId,
        locationId,
        consumptions: [
          { productId: a, quantity: 2 },
          { productId: b, quantity: 1, serialNumbers: ['B-1'] },
        ],
        outputs: [{ productId: kit, quantity: 3 }],
      }),
    );
    expect(result).toEqual({ consumedValue: '10.5000', outputValue: '10.5000' });
    expect(await balanceOf(kit)).toMatchObject({ on_hand: 3, value: 10.5, unit_cost: 3.5 });
    expect(await balanceOf(a)).toMatchObject({ on_hand: 3, value: 9 });
    const rows = await live.get(`/v1/inventory/transactions?source_id=${buildId}`).expect(200);
    expect(rows.body.data.map((t: { type: string }) => t.type).sort()).toEqual([
      'build_consumption',
      'build_consumption',
      'build_output',
    ]);
    const serial = (await live.get(`/v1/inventory/serials?product_id=${b}`).expect(200)).body.data[0];
    expect(serial.status).toBe('consumed_in_manufacturing');
    await expect(
      asPrimary(() =>
        stock.recordBuild({
          buildId: newId(),
          locationId,
          consumptions: [{ productId: a, quantity: 9 }],
          outputs: [{ productId: kit, quantity: 1 }],
        }),
      ),
    ).rejects.toMatchObject({ code: 'insufficient_stock', param: 'consumptions[0].quantity' });
    expect(await ledgerMismatches(app)).toEqual([]);
  });

  it('keeps the subledger variance at 0 after a mixed sequence', async () => {
    const productId = await newProduct(live);
    const second = await newLocation(live);
    const po = await purchaseOrder([{ product_id: productId, quantity: 9, unit_price: 3.3333 }]);
    await live
      .post(`/v1/purchase-orders/${po.id}/receive`)
      .send({ lines: [{ order_item_id: po.lines[0].id, quantity: 7, location_id: locationId }] })
      .expect(200);
    await live
      .post('/v1/inventory/adjustments')
      .send({ product_id: productId, location_id: locationId, quantity: 2, unit_cost: 7.77, reason: 'found' })
      .expect(201);
    await live
      .post('/v1/inventory/transfers')
      .send({ product_id: productId, from_location_id: locationId, to_location_id: second, quantity: 3 })
      .expect(201);
    await live
      .post('/v1/inventory/adjustments')
      .send({ product_id: productId, location_id: second, quantity: -1, reason: 'lost' })
      .expect(201);
    const order = await salesOrder(productId, 2);
    const packageId = newId();
    await asPrimary(async () => {
      const shipped = await app.get(StockService).shipPackage({
        packageId,
        orderId: order.id,
        lines: [{ orderItemId: order.lines[0].id, productId, locationId, quantity: 2 }],
      });
      await app.get(LedgerPostingService).post({
        source_type: 'FULFILLMENT',
        source_id: packageId,
        source_module: 'test',
        entry_date: new Date().toISOString().slice(0, 10),
        description: 'COGS',
        lines: [
          { role: 'cogs', debit: shipped.totalCost },
          { role: 'inventory', credit: shipped.totalCost },
        ],
      });
    });
    await live
      .post('/v1/inventory/adjustments')
      .send({ product_id: productId, location_id: locationId, counted_quantity: 0, reason: 'count' })
      .expect(201);
    const report = await live.get('/v1/reports/subledger-reconciliation?subledger=inventory').expect(200);
    expect(report.body.inventory.variance).toBe(0);
    expect(await ledgerMismatches(app)).toEqual([]);
  });
});
