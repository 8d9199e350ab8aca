import { confirmedOrder, newProduct, stock } from '../fulfillment/support';
import { lockInventoryBalancesOf } from '../support/db-faults';
import { waitFor } from '../support/eventually';
import { api } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';
import { newLocation } from './support';

type Figures = { on_hand: number; allocated: number; available: number };

/**
 * Allocation follows the location a package ships from: a confirmed line commits at the default
 * location; once a package of it ships from another location, the shipped units leave that
 * location's stock and what stays open of the line is committed there. `available` is right at
 * both locations after every step, and no balance that holds nothing is left behind.
 *
 * The expected figures come from a model kept by the test: units added by adjustments, lines
 * committed at the default location, shipments taking units out where they ship from.
 */
describe('inventory: allocation follows the shipping location', () => {
  let app: TestApp;
  let live: ReturnType<typeof api>;
  let accountId: string;
  let home: string;
  let away: string;

  /** The model: per product and location, units on hand and allocated. */
  const model = new Map<string, Map<string, { onHand: number; allocated: number }>>();
  const at = (productId: string, locationId: string) => {
    const byLocation = model.get(productId) ?? new Map<string, { onHand: number; allocated: number }>();
    model.set(productId, byLocation);
    const cell = byLocation.get(locationId) ?? { onHand: 0, allocated: 0 };
    byLocation.set(locationId, cell);
    return cell;
  };
  /** The figures the model expects at each location that holds something. */
  const expected = (productId: string) => {
    const result: Record<string, Figures> = {};
    for (const [locationId, c] of model.get(productId) ?? [])
      if (c.onHand !== 0 || c.allocated !== 0)
        result[locationId] = { on_hand: c.onHand, allocated: c.allocated, available: c.onHand - c.allocated };
    return result;
  };
  /** Every balance of a product as the API lists it, by location. */
  const balances = async (productId: string) => {
    const rows = (await live.get(`/v1/inventory/balances?product_id=${productId}&limit=100`).expect(200)).body
      .data as (Figures & { location_id: string })[];
    return Object.fromEntries(
      rows.map((b) => [
        b.location_id,
        { on_hand: b.on_hand, allocated: b.allocated, available: b.available },
      ]),
    );
  };
  const balanceIdAt = async (productId: string, locationId: string) =>
    (
      (await live.get(`/v1/inventory/balances?product_id=${productId}&location_id=${locationId}`).expect(200))
        .body.data as { id: string }[]
    )[0]?.id;
  const expectBalances = async (...productIds: string[]) => {
    for (const productId of productIds) expect(await balances(productId)).toEqual(expected(productId));
  };

  const addStock = async (productId: string, locationId: string, quantity: number) => {
    await stock(live, productId, locationId, quantity, 4);
    at(productId, locationId).onHand += quantity;
  };
  const confirm = async (lines: { product_id: string; quantity: number }[]) => {
    const order = await confirmedOrder(live, accountId, lines);
    for (const l of lines) at(l.product_id, home).allocated += l.quantity;
    return order;
  };
  /** Ships `items` of the order from `locationId`; the model moves what stays open of each line there. */
  const ship = async (
    order: { id: string; items: { id: string; product_id: string }[] },
    items: { line: number; quantity: number; open: number; committedAt: string }[],
    locationId: string,
  ) => {
    const pkg = await live
      .post('/v1/packages')
      .send({
        order_id: order.id,
        location_id: locationId,
        items: items.map((i) => ({ order_item_id: order.items[i.line].id, quantity: i.quantity })),
      })
      .expect(201);
    await live
      .post(`/v1/packages/${pkg.body.id}/ship`)
      .send({ carrier: 'ups', tracking_number: '1ZLOC' })
      .expect(200);
    for (const i of items) {
      const productId = order.items[i.line].product_id;
      at(productId, i.committedAt).allocated -= i.open;
      at(productId, locationId).allocated += i.open - Math.min(i.open, i.quantity);
      at(productId, locationId).onHand -= i.quantity;
    }
  };

  beforeAll(async () => {
    app = await startTestApp();
    live = api(app, app.seed.entities.primary.keys.live);
    accountId = app.seed.fixtures.account_id as string;
    home = await newLocation(live);
    away = await newLocation(live);
    await live.patch('/v1/inventory/settings').send({ default_location_id: home }).expect(200);
  });
  afterAll(() => app.close());

  it('a package shipped in full from another location releases the default location and leaves no empty row', async () => {
    const widget = await newProduct(live);
    const gadget = await newProduct(live);
    await addStock(widget, home, 2);
    await addStock(widget, away, 10);
    await addStock(gadget, away, 6);
    await expectBalances(widget, gadget);

    const order = await confirm([
      { product_id: widget, quantity: 4 },
      { product_id: gadget, quantity: 3 },
    ]);
    await expectBalances(widget, gadget);
    // The default location holds the commitment of a product it has no stock of.
    expect((await balances(gadget))[home]).toEqual({ on_hand: 0, allocated: 3, available: -3 });

    await ship(
      order,
      [
        { line: 0, quantity: 4, open: 4, committedAt: home },
        { line: 1, quantity: 3, open: 3, committedAt: home },
      ],
      away,
    );
    await expectBalances(widget, gadget);
    expect(await balances(widget)).toEqual({
      [home]: { on_hand: 2, allocated: 0, available: 2 },
      [away]: { on_hand: 6, allocated: 0, available: 6 },
    });
    expect(Object.keys(await balances(gadget))).toEqual([away]);
    expect((await live.get(`/v1/orders/${order.id}`).expect(200)).body.order_status).toBe('fulfilled');
    expect(await emptyRows(widget, gadget)).toEqual([]);
  });

  it('a partial shipment from another location commits the rest of the line there', async () => {
    const widget = await newProduct(live);
    await addStock(widget, home, 2);
    await addStock(widget, away, 10);

    const order = await confirm([{ product_id: widget, quantity: 5 }]);
    await expectBalances(widget);
    expect((await balances(widget))[home]).toEqual({ on_hand: 2, allocated: 5, available: -3 });

    await ship(order, [{ line: 0, quantity: 2, open: 5, committedAt: home }], away);
    await expectBalances(widget);
    expect(await balances(widget)).toEqual({
      [home]: { on_hand: 2, allocated: 0, available: 2 },
      [away]: { on_hand: 8, allocated: 3, available: 5 },
    });

    await ship(order, [{ line: 0, quantity: 3, open: 3, committedAt: away }], away);
    await expectBalances(widget);
    expect((await balances(widget))[away]).toEqual({ on_hand: 5, allocated: 0, available: 5 });
    expect(await emptyRows(widget)).toEqual([]);
  });

  it('shipping back from the default location moves the rest back, and closing the order releases it', async () => {
    const widget = await newProduct(live);
    await addStock(widget, home, 4);
    await addStock(widget, away, 4);

    const order = await confirm([{ product_id: widget, quantity: 6 }]);
    await ship(order, [{ line: 0, quantity: 1, open: 6, committedAt: home }], away);
    await expectBalances(widget);
    expect((await balances(widget))[away]).toEqual({ on_hand: 3, allocated: 5, available: -2 });

    await ship(order, [{ line: 0, quantity: 2, open: 5, committedAt: away }], home);
    await expectBalances(widget);
    expect(await balances(widget)).toEqual({
      [home]: { on_hand: 2, allocated: 3, available: -1 },
      [away]: { on_hand: 3, allocated: 0, available: 3 },
    });

    await live.post(`/v1/orders/${order.id}/close`).send({}).expect(200);
    at(widget, home).allocated -= 3;
    await expectBalances(widget);
    expect((await balances(widget))[home]).toEqual({ on_hand: 2, allocated: 0, available: 2 });
  });

  it('cancelling an order removes the balance that only held its commitment', async () => {
    const gadget = await newProduct(live);
    await addStock(gadget, away, 3);
    const order = await confirm([{ product_id: gadget, quantity: 2 }]);
    expect((await balances(gadget))[home]).toEqual({ on_hand: 0, allocated: 2, available: -2 });

    await live.post(`/v1/orders/${order.id}/cancel`).send({}).expect(200);
    at(gadget, home).allocated -= 2;
    await expectBalances(gadget);
    expect(Object.keys(await balances(gadget))).toEqual([away]);
    expect(await emptyRows(gadget)).toEqual([]);
  });

  it('a commitment made while another order empties and removes the same balance is kept', async () => {
    const gadget = await newProduct(live);
    const first = await confirm([{ product_id: gadget, quantity: 1 }]);
    const draft = (
      await live
        .post('/v1/orders')
        .send({ account_id: accountId, lines: [{ product_id: gadget, quantity: 2 }] })
        .expect(201)
    ).body;

    const idBefore = await balanceIdAt(gadget, home);
    // The cancel waits on the balance first, the confirm behind it: the cancel empties and deletes
    // the balance the confirm is waiting to lock.
    const lock = await lockInventoryBalancesOf(app, gadget);
    let cancelled: Promise<{ status: number }> | undefined;
    let confirmed: Promise<{ status: number }> | undefined;
    try {
      cancelled = live
        .post(`/v1/orders/${first.id}/cancel`)
        .send({})
        .then((r) => r);
      await lock.waitForWaiters(1);
      confirmed = live
        .post(`/v1/orders/${draft.id}/confirm`)
        .send({})
        .then((r) => r);
      // The confirm queues behind the cancel for the row, so it may wait on the cancel, not the holder.
      await waitFor(async () => (await lockWaiters()) >= 2, { label: 'the confirm waiting for the balance' });
    } finally {
      await lock.release();
    }
    expect([(await cancelled!).status, (await confirmed!).status]).toEqual([200, 200]);

    // The cancel went first: the balance was deleted and the confirm made a new one.
    expect(await balanceIdAt(gadget, home)).not.toBe(idBefore);
    at(gadget, home).allocated += 2 - 1;
    await expectBalances(gadget);
    expect(await balances(gadget)).toEqual({ [home]: { on_hand: 0, allocated: 2, available: -2 } });
  });

  /**
   * Backends of the app's database waiting for a lock.
   * SQL: lock waits are a database state no API shows.
   */
  async function lockWaiters(): Promise<number> {
    const { rows } = await app.db.query(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
    );
    return rows[0].n as number;
  }

  /**
   * Balances of the products holding nothing at all, in every location.
   * SQL: a row the API could still hide from its lists is looked for in the table itself.
   */
  async function emptyRows(...productIds: string[]): Promise<unknown[]> {
    const { rows } = await app.db.query(
      `SELECT id, location_id FROM inventory_balances
        WHERE product_id = ANY($1::uuid[]) AND on_hand = 0 AND allocated = 0 AND on_order = 0 AND value = 0`,
      [productIds],
    );
    return rows;
  }
});
