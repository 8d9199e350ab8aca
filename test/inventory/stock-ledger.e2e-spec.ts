import { api, expectError } from '../support/http';
import { journalEntriesOf } from '../support/journal';
import { expectEvent } from '../support/expect-event';
import { outbox } from '../support/outbox';
import { startTestApp, TestApp } from '../support/test-app';
import { balanceEvents, Client, fixturesOf, ledgerMismatches, newProduct } from './support';

describe('inventory: ledger, balances, adjustments', () => {
  let app: TestApp;
  let live: Client;
  let test: Client;
  let other: Client;
  let readOnly: Client;
  let locationId: string;

  beforeAll(async () => {
    app = await startTestApp();
    live = api(app, app.seed.entities.primary.keys.live);
    test = api(app, app.seed.entities.primary.keys.test);
    other = api(app, app.seed.entities.secondary.keys.live);
    readOnly = api(app, app.seed.entities.primary.keys.read_only);
    locationId = fixturesOf(app).locationId;
  });
  afterAll(() => app.close());

  const adjust = (body: Record<string, unknown>, client: Client = live) =>
    client.post('/v1/inventory/adjustments').send(body);

  it('seeds a stocked product with a reorder point, allocations and an open purchase order', async () => {
    const { productId } = fixturesOf(app);
    const list = await live
      .get(`/v1/inventory/balances?product_id=${productId}&location_id=${locationId}`)
      .expect(200);
    expect(list.body).toMatchObject({ object: 'list', has_more: false, url: '/v1/inventory/balances' });
    expect(list.body.data).toHaveLength(1);
    const balance = list.body.data[0];
    // 50 opening stock + 4 received of the PO's 10; two confirmed orders of 2 lines x 3 are allocated.
    expect(balance).toMatchObject({
      object: 'inventory_balance',
      product_id: productId,
      location_id: locationId,
      on_hand: 54,
      allocated: 12,
      available: 42,
      on_order: 6,
      reorder_point: 10,
      below_reorder_point: false,
      livemode: true,
    });
    expect(balance.value).toBe(538);
    expect(balance.unit_cost).toBe(9.963);
  });

  it('adjusts stock at cost, posts INVENTORY_ADJUSTMENT and keeps the moving average', async () => {
    const productId = await newProduct(live);
    const up = await adjust({
      product_id: productId,
      location_id: locationId,
      quantity: 10,
      unit_cost: 4,
      reason: 'Opening count',
    }).expect(201);
    expect(up.body).toMatchObject({
      object: 'inventory_adjustment',
      type: 'adjustment',
      quantity: 10,
      unit_cost: 4,
      value: 40,
      reason: 'Opening count',
      balance: { on_hand: 10, value: 40, unit_cost: 4, allocated: 0, available: 10 },
    });
    const entry = await live.get(`/v1/journal-entries/${up.body.journal_entry_id}`).expect(200);
    expect(entry.body).toMatchObject({
      source_type: 'INVENTORY_ADJUSTMENT',
      source_id: up.body.id,
      status: 'posted',
    });
    const accounts = app.seed.fixtures.ledger_accounts as Record<string, string>;
    const inventoryLine = entry.body.lines.find(
      (l: { account_id: string }) => l.account_id === accounts.inventory,
    );
    expect(inventoryLine).toMatchObject({ debit_amount: 40, credit_amount: 0 });

    await adjust({
      product_id: productId,
      location_id: locationId,
      quantity: 10,
      unit_cost: 6,
      reason: 'Second lot',
    }).expect(201);
    const down = await adjust({
      product_id: productId,
      location_id: locationId,
      quantity: -4,
      reason: 'Breakage',
    }).expect(201);
    expect(down.body).toMatchObject({
      quantity: -4,
      unit_cost: 5,
      value: -20,
      balance: { on_hand: 16, value: 80, unit_cost: 5 },
    });
    const loss = await live.get(`/v1/journal-entries/${down.body.journal_entry_id}`).expect(200);
    expect(
      loss.body.lines.find((l: { account_id: string }) => l.account_id === accounts.inventory),
    ).toMatchObject({
      debit_amount: 0,
      credit_amount: 20,
    });

    const count = await adjust({
      product_id: productId,
      location_id: locationId,
      counted_quantity: 12,
      reason: 'Cycle count',
    }).expect(201);
    expect(count.body).toMatchObject({
      type: 'cycle_count',
      quantity: -4,
      counted_quantity: 12,
      balance: { on_hand: 12 },
    });
    const countEntry = await live.get(`/v1/journal-entries/${count.body.journal_entry_id}`).expect(200);
    expect(countEntry.body.source_type).toBe('CYCLE_COUNT');
    const same = await adjust({
      product_id: productId,
      location_id: locationId,
      counted_quantity: 12,
      reason: 'Recount',
    }).expect(201);
    expect(same.body).toMatchObject({ quantity: 0, transaction_id: null, journal_entry_id: null });

    const txs = await live.get(`/v1/inventory/transactions?product_id=${productId}`).expect(200);
    expect(txs.body.data.map((t: { quantity: number }) => t.quantity)).toEqual([-4, -4, 10, 10]);
    expect(txs.body.data[0]).toMatchObject({
      object: 'inventory_transaction',
      type: 'cycle_count',
      source_type: 'adjustment',
      source_id: count.body.id,
    });
    const one = await live.get(`/v1/inventory/transactions/${txs.body.data[3].id}`).expect(200);
    expect(one.body).toEqual(txs.body.data[3]);
    const byType = await live
      .get(`/v1/inventory/transactions?product_id=${productId}&type=cycle_count`)
      .expect(200);
    expect(byType.body.data).toHaveLength(1);
    const bySource = await live.get(`/v1/inventory/transactions?source_id=${up.body.id}`).expect(200);
    expect(bySource.body.data.map((t: { id: string }) => t.id)).toEqual([up.body.transaction_id]);
    const after = await live
      .get(`/v1/inventory/transactions?product_id=${productId}&created_after=${one.body.created_at}`)
      .expect(200);
    expect(after.body.data).toHaveLength(3);
    const before = await live
      .get(`/v1/inventory/transactions?product_id=${productId}&created_before=${one.body.created_at}`)
      .expect(200);
    expect(before.body.data).toHaveLength(0);

    expect(await ledgerMismatches(app)).toEqual([]);
  });

  it('refuses to take on_hand below zero (422 insufficient_stock) unless the entity allows negative stock', async () => {
    const productId = await newProduct(live);
    await adjust({
      product_id: productId,
      location_id: locationId,
      quantity: 2,
      unit_cost: 3,
      reason: 'in',
    }).expect(201);
    const res = await adjust({ product_id: productId, location_id: locationId, quantity: -3, reason: 'out' });
    expectError(res, 422, 'insufficient_stock', { param: 'quantity', type: 'validation_error' });
    expect(res.body.hint).toContain(productId);
    const counted = await adjust({
      product_id: productId,
      location_id: locationId,
      counted_quantity: 0,
      reason: 'all gone',
    }).expect(201);
    expect(counted.body.balance).toMatchObject({ on_hand: 0, value: 0 });

    const settings = await live.get('/v1/inventory/settings').expect(200);
    expect(settings.body).toMatchObject({ object: 'inventory_settings', allow_negative_stock: false });
    await live.patch('/v1/inventory/settings').send({ allow_negative_stock: true }).expect(200);
    const negative = await adjust({
      product_id: productId,
      location_id: locationId,
      quantity: -2,
      reason: 'backorder',
    }).expect(201);
    expect(negative.body.balance.on_hand).toBe(-2);
    await live.patch('/v1/inventory/settings').send({ allow_negative_stock: false }).expect(200);
    expect(await ledgerMismatches(app)).toEqual([]);
  });

  it('ends 20 concurrent adjustments of one balance exact', async () => {
    const productId = await newProduct(live);
    await adjust({
      product_id: productId,
      location_id: locationId,
      quantity: 100,
      unit_cost: 2.5,
      reason: 'stock',
    }).expect(201);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        adjust({
          product_id: productId,
          location_id: locationId,
          quantity: i % 2 === 0 ? -3 : 2,
          unit_cost: i % 2 === 0 ? undefined : 4,
          reason: `c${i}`,
        }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(201));
    const balance = (await live.get(`/v1/inventory/balances?product_id=${productId}`).expect(200)).body
      .data[0];
    expect(balance.on_hand).toBe(100 - 30 + 20);
    expect(await ledgerMismatches(app)).toEqual([]);
    const ids = results.map((r) => r.body.id as string);
    const entries = await journalEntriesOf(app, ['INVENTORY_ADJUSTMENT'], ids);
    expect(entries.map((e) => e.source_id).sort()).toEqual([...ids].sort());
  });

  it('validates adjustments: one of quantity and counted_quantity, known references, cost on increases only', async () => {
    const productId = await newProduct(live);
    expectError(
      await adjust({ product_id: productId, location_id: locationId, reason: 'x' }),
      400,
      'parameter_missing',
      { param: 'quantity' },
    );
    expectError(
      await adjust({
        product_id: productId,
        location_id: locationId,
        quantity: 1,
        counted_quantity: 1,
        reason: 'x',
      }),
      400,
      'parameter_invalid',
      { param: 'quantity' },
    );
    expectError(
      await adjust({ product_id: productId, location_id: locationId, quantity: 0, reason: 'x' }),
      400,
      'parameter_invalid',
      { param: 'quantity' },
    );
    expectError(
      await adjust({ product_id: productId, location_id: locationId, quantity: 1.5, reason: 'x' }),
      400,
      'parameter_invalid',
      { param: 'quantity' },
    );
    expectError(
      await adjust({ product_id: productId, location_id: locationId, quantity: 1 }),
      400,
      'parameter_missing',
      { param: 'reason' },
    );
    expectError(
      await adjust({
        product_id: '0190a000-0000-7000-8000-000000000000',
        location_id: locationId,
        quantity: 1,
        reason: 'x',
      }),
      400,
      'parameter_invalid',
      { param: 'product_id' },
    );
    expectError(
      await adjust({
        product_id: productId,
        location_id: '0190a000-0000-7000-8000-000000000000',
        quantity: 1,
        reason: 'x',
      }),
      400,
      'parameter_invalid',
      { param: 'location_id' },
    );
    expectError(
      await adjust({
        product_id: productId,
        location_id: locationId,
        quantity: -1,
        unit_cost: 2,
        reason: 'x',
      }),
      400,
      'parameter_invalid',
      { param: 'unit_cost' },
    );
    expectError(
      await adjust({
        product_id: productId,
        location_id: locationId,
        quantity: 1,
        unit_cost: -2,
        reason: 'x',
      }),
      400,
      'parameter_invalid',
      { param: 'unit_cost' },
    );
    const service = await newProduct(live, { type: 'service' });
    expectError(
      await adjust({ product_id: service, location_id: locationId, quantity: 1, reason: 'x' }),
      400,
      'parameter_invalid',
      { param: 'product_id' },
    );
    expectError(
      await adjust({
        product_id: productId,
        location_id: locationId,
        quantity: 1,
        reason: 'x',
        serial_numbers: ['A'],
      }),
      400,
      'parameter_invalid',
      { param: 'serial_numbers' },
    );
  });

  it('is idempotent with an Idempotency-Key', async () => {
    const productId = await newProduct(live);
    const body = {
      product_id: productId,
      location_id: locationId,
      quantity: 5,
      unit_cost: 1,
      reason: 'once',
    };
    const first = await live
      .post('/v1/inventory/adjustments')
      .set('Idempotency-Key', `adj-${productId}`)
      .send(body)
      .expect(201);
    const again = await live
      .post('/v1/inventory/adjustments')
      .set('Idempotency-Key', `adj-${productId}`)
      .send(body)
      .expect(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.id).toBe(first.body.id);
    const balance = await live.get(`/v1/inventory/balances/${first.body.balance.id}`).expect(200);
    expect(balance.body.on_hand).toBe(5);
  });

  it('updates the planning fields and lists balances below their reorder point', async () => {
    const productId = await newProduct(live);
    const created = await adjust({
      product_id: productId,
      location_id: locationId,
      quantity: 8,
      unit_cost: 1,
      reason: 'in',
    }).expect(201);
    const id = created.body.balance.id as string;
    const patched = await live
      .patch(`/v1/inventory/balances/${id}`)
      .send({ reorder_point: 8, reorder_quantity: 20, safety_stock: 2 })
      .expect(200);
    expect(patched.body).toMatchObject({
      reorder_point: 8,
      reorder_quantity: 20,
      safety_stock: 2,
      below_reorder_point: true,
    });
    const below = await live
      .get(`/v1/inventory/balances?below_reorder_point=true&product_id=${productId}`)
      .expect(200);
    expect(below.body.data.map((b: { id: string }) => b.id)).toEqual([id]);
    const notBelow = await live
      .get(`/v1/inventory/balances?below_reorder_point=false&product_id=${productId}`)
      .expect(200);
    expect(notBelow.body.data).toEqual([]);
    expectError(
      await live.patch(`/v1/inventory/balances/${id}`).send({ reorder_point: -1 }),
      400,
      'parameter_invalid',
      { param: 'reorder_point' },
    );
    expectError(
      await live.patch(`/v1/inventory/balances/${id}`).send({ on_hand: 100 }),
      400,
      'parameter_unknown',
    );
    const cleared = await live
      .patch(`/v1/inventory/balances/${id}`)
      .send({ reorder_point: null })
      .expect(200);
    expect(cleared.body).toMatchObject({ reorder_point: null, below_reorder_point: false });
    const etag = (await live.get(`/v1/inventory/balances/${id}`).expect(200)).headers.etag;
    expectError(
      await live.patch(`/v1/inventory/balances/${id}`).set('If-Match', 'W/"stale"').send({ safety_stock: 1 }),
      412,
      'precondition_failed',
    );
    await live
      .patch(`/v1/inventory/balances/${id}`)
      .set('If-Match', etag)
      .send({ safety_stock: 1 })
      .expect(200);
  });

  it('emits the stock events once per crossing, with the balance as data.object', async () => {
    const productId = await newProduct(live);
    const first = await adjust({
      product_id: productId,
      location_id: locationId,
      quantity: 10,
      unit_cost: 1,
      reason: 'in',
    }).expect(201);
    const id = first.body.balance.id as string;
    expect(await balanceEvents(app, 'inventory.back_in_stock', id)).toBe(1);
    await live.patch(`/v1/inventory/balances/${id}`).send({ reorder_point: 5 }).expect(200);
    for (const q of [-3, -2, -1, -1])
      await adjust({ product_id: productId, location_id: locationId, quantity: q, reason: 'sale' }).expect(
        201,
      );
    // 10 → 7 → 5 (low) → 4 → 3: one low_stock
    expect(await balanceEvents(app, 'inventory.low_stock', id)).toBe(1);
    await adjust({ product_id: productId, location_id: locationId, quantity: -3, reason: 'sale' }).expect(
      201,
    );
    await adjust({ product_id: productId, location_id: locationId, quantity: 1, reason: 'found' }).expect(
      201,
    );
    await adjust({ product_id: productId, location_id: locationId, quantity: -1, reason: 'lost' }).expect(
      201,
    );
    expect(await balanceEvents(app, 'inventory.out_of_stock', id)).toBe(2);
    await adjust({
      product_id: productId,
      location_id: locationId,
      quantity: 9,
      unit_cost: 1,
      reason: 'restock',
    }).expect(201);
    expect(await balanceEvents(app, 'inventory.back_in_stock', id)).toBe(2);
    expect(await balanceEvents(app, 'inventory.low_stock', id)).toBe(1);
    const [firstOut] = (await outbox(app).all('inventory.out_of_stock')).filter(
      (e) => e.data.object.id === id,
    );
    expect(firstOut.data.object).toMatchObject({
      object: 'inventory_balance',
      id,
      on_hand: 0,
      reorder_point: 5,
    });
    const adjusted = (await outbox(app).all('inventory.adjusted')).filter(
      (e) => e.data.object.product_id === productId,
    );
    expect(adjusted).toHaveLength(9);
    // The crossings read through the events API, each committed by the adjustment route: on hand
    // 5 at the reorder point (low), 0 (out), and 9 after the restock (back in stock).
    await expectEvent(app, 'inventory.low_stock', { object: 'inventory_balance', id, on_hand: 5 });
    await expectEvent(app, 'inventory.out_of_stock', { object: 'inventory_balance', id, on_hand: 0 });
    await expectEvent(app, 'inventory.back_in_stock', { object: 'inventory_balance', id, on_hand: 9 });
    await expectEvent(app, 'inventory.adjusted', { product_id: productId, location_id: locationId });
  });

  it('isolates entities and modes, and checks scopes', async () => {
    const productId = await newProduct(live);
    const created = await adjust({
      product_id: productId,
      location_id: locationId,
      quantity: 1,
      unit_cost: 1,
      reason: 'in',
    }).expect(201);
    const balanceId = created.body.balance.id as string;
    const txId = created.body.transaction_id as string;
    for (const client of [other, test]) {
      expectError(await client.get(`/v1/inventory/balances/${balanceId}`), 404, 'not_found');
      expectError(
        await client.patch(`/v1/inventory/balances/${balanceId}`).send({ reorder_point: 1 }),
        404,
        'not_found',
      );
      expectError(await client.get(`/v1/inventory/transactions/${txId}`), 404, 'not_found');
      expect(
        (await client.get(`/v1/inventory/transactions?product_id=${productId}`).expect(200)).body.data,
      ).toEqual([]);
      expect(
        (await client.get(`/v1/inventory/balances?product_id=${productId}`).expect(200)).body.data,
      ).toEqual([]);
      expectError(
        await adjust({ product_id: productId, location_id: locationId, quantity: 1, reason: 'x' }, client),
        400,
        'parameter_invalid',
        { param: 'product_id' },
      );
    }
    expectError(await live.get('/v1/inventory/balances/not-a-uuid'), 404, 'not_found');
    await readOnly.get('/v1/inventory/balances').expect(200);
    expectError(
      await adjust({ product_id: productId, location_id: locationId, quantity: 1, reason: 'x' }, readOnly),
      403,
      'insufficient_scope',
      { required: 'inventory:write' },
    );
    expectError(
      await api(app, app.seed.entities.primary.keys.orders_only).get('/v1/inventory/transactions'),
      403,
      'insufficient_scope',
      { required: 'inventory:read' },
    );
    const alias = await live
      .get(`/v1/entities/${app.seed.entities.primary.id}/inventory/balances/${balanceId}`)
      .expect(200);
    expect(alias.body.id).toBe(balanceId);
    expectError(
      await live.get(`/v1/entities/${app.seed.entities.secondary.id}/inventory/balances/${balanceId}`),
      403,
      'entity_isolation_violation',
    );
  });

  it('keeps the inventory subledger reconciled with the control account', async () => {
    const report = await live.get('/v1/reports/subledger-reconciliation?subledger=inventory').expect(200);
    expect(report.body.inventory.variance).toBe(0);
    expect(report.body.inventory.subledger_balance).toBeGreaterThan(0);
    expect(report.body.inventory.gl_balance).toBe(report.body.inventory.subledger_balance);
  });
});
