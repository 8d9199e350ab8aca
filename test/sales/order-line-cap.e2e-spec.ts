import Decimal from 'decimal.js';
import { api, expectError } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';

type LineBody = {
  product_id?: string;
  description?: string;
  quantity: number;
  unit_price: number;
  discount_percent?: number;
  discount_amount?: number;
  tax_rate?: number;
};

const CAP = 1000;

/**
 * The cap on an order's lines (1,000 lines sent by callers) holds on every route that adds
 * lines, refused with 400 parameter_invalid on `lines` and nothing written; adding lines to a
 * large order keeps its totals exact and moves only the new lines' stock commitments.
 *
 * Expected totals are computed here from the line fields, with the published arithmetic: line
 * amounts rounded half-up to 4 places, order sums to 2, total = subtotal − discount + tax.
 */
describe('orders: the line cap and adding lines to a large order', () => {
  let app: TestApp;
  let live: ReturnType<typeof api>;
  let accountId: string;
  let productId: string;

  beforeAll(async () => {
    app = await startTestApp();
    live = api(app, app.seed.entities.primary.keys.live);
    accountId = app.seed.fixtures.account_id as string;
    productId = (
      await live
        .post('/v1/products')
        .send({ sku: `CAP-${Date.now()}`, name: 'Cap test product', type: 'standard', list_price: 7 })
        .expect(201)
    ).body.id as string;
  });
  afterAll(() => app.close());

  /** Line i of a test order: amounts that exercise rounding, discounts and tax. */
  const lineOf = (i: number): LineBody => ({
    description: `Line ${i}`,
    quantity: [1, 1.5, 2.25, 3][i % 4],
    unit_price: [10.0333, 7.1, 0.3333, 19.99][i % 4],
    discount_percent: [0, 5, 12.5][i % 3],
    discount_amount: [0, 0.1][i % 2],
    tax_rate: [0, 8.25, 20][i % 3],
  });

  const round = (v: Decimal, places: number) => v.toDecimalPlaces(places, Decimal.ROUND_HALF_UP);
  /** The order's totals from its line fields, computed independently of the service. */
  const expectedTotals = (lines: LineBody[]) => {
    let subtotal = new Decimal(0);
    let discount = new Decimal(0);
    let tax = new Decimal(0);
    for (const l of lines) {
      const s = round(new Decimal(l.quantity).mul(l.unit_price), 4);
      let d = round(s.mul(l.discount_percent ?? 0).div(100), 4).plus(l.discount_amount ?? 0);
      if (d.gt(s)) d = s;
      const t = round(
        s
          .minus(d)
          .mul(l.tax_rate ?? 0)
          .div(100),
        4,
      );
      subtotal = subtotal.plus(s);
      discount = discount.plus(d);
      tax = tax.plus(t);
    }
    const [s2, d2, t2] = [subtotal, discount, tax].map((v) => round(v, 2));
    return {
      subtotal: s2.toNumber(),
      discount_total: d2.toNumber(),
      tax_total: t2.toNumber(),
      total: s2.minus(d2).plus(t2).toNumber(),
    };
  };
  const totalsOf = (o: { subtotal: number; discount_total: number; tax_total: number; total: number }) => ({
    subtotal: o.subtotal,
    discount_total: o.discount_total,
    tax_total: o.tax_total,
    total: o.total,
  });

  /**
   * The order.line.added events about an order and its stored lines.
   * SQL: counting events whose payload is the whole order (hundreds of KiB each) through the
   * events API would page megabytes per check.
   */
  const written = async (orderId: string) => {
    const { rows } = await app.db.query(
      `SELECT (SELECT count(*)::int FROM outbox_events WHERE type = 'order.line.added' AND data->'object'->>'id' = $1::text) AS events,
              (SELECT count(*)::int FROM order_lines WHERE order_id = $1::uuid) AS lines`,
      [orderId],
    );
    return rows[0] as { events: number; lines: number };
  };

  it('keeps the totals exact while lines are added to a large order, and refuses the 1,001st line', async () => {
    const lines = Array.from({ length: CAP - 5 }, (_, i) => lineOf(i));
    const created = (await live.post('/v1/orders').send({ account_id: accountId, lines }).expect(201)).body;
    expect(created.lines).toHaveLength(CAP - 5);
    expect(totalsOf(created)).toEqual(expectedTotals(lines));

    for (let i = CAP - 5; i < CAP; i++) {
      const added = (await live.post(`/v1/orders/${created.id}/lines`).send(lineOf(i)).expect(201)).body;
      lines.push(lineOf(i));
      expect(added.object).toBe('order');
      expect(added.lines).toHaveLength(lines.length);
      expect(added.lines.at(-1)).toMatchObject({ description: `Line ${i}`, position: i });
      expect(totalsOf(added)).toEqual(expectedTotals(lines));
      expect(added.amount_due).toBe(expectedTotals(lines).total);
    }
    const stored = (await live.get(`/v1/orders/${created.id}`).expect(200)).body;
    expect(totalsOf(stored)).toEqual(expectedTotals(lines));
    const before = await written(created.id);
    expect(before).toEqual({ events: 5, lines: CAP });

    expectError(
      await live.post(`/v1/orders/${created.id}/lines`).send(lineOf(CAP)),
      400,
      'parameter_invalid',
      { param: 'lines' },
    );
    expect(await written(created.id)).toEqual(before);
    const after = (await live.get(`/v1/orders/${created.id}`).expect(200)).body;
    expect(after.lines).toHaveLength(CAP);
    expect(totalsOf(after)).toEqual(expectedTotals(lines));
    expect(after.updated_at).toBe(stored.updated_at);

    // Removing a line makes room for one again.
    await live.delete(`/v1/orders/${created.id}/lines/${after.lines[0].id}`).expect(200);
    const refilled = (await live.post(`/v1/orders/${created.id}/lines`).send(lineOf(CAP)).expect(201)).body;
    expect(refilled.lines).toHaveLength(CAP);
    expect(totalsOf(refilled)).toEqual(expectedTotals([...lines.slice(1), lineOf(CAP)]));
  });

  it('refuses more than 1,000 lines on create and on a PATCH that replaces the lines', async () => {
    const tooMany = Array.from({ length: CAP + 1 }, (_, i) => lineOf(i));
    expectError(
      await live.post('/v1/orders').send({ account_id: accountId, lines: tooMany }),
      400,
      'parameter_invalid',
      { param: 'lines' },
    );
    const draft = (
      await live
        .post('/v1/orders')
        .send({ account_id: accountId, lines: [lineOf(0)] })
        .expect(201)
    ).body;
    expectError(
      await live.patch(`/v1/orders/${draft.id}`).send({ lines: tooMany }),
      400,
      'parameter_invalid',
      { param: 'lines' },
    );
    const stored = (await live.get(`/v1/orders/${draft.id}`).expect(200)).body;
    expect(stored.lines).toHaveLength(1);
    expect(totalsOf(stored)).toEqual(expectedTotals([lineOf(0)]));
  });

  it('commits only what the new line adds on a large confirmed order', async () => {
    const location = (await live.get('/v1/locations?limit=100').expect(200)).body.data.at(-1).id as string;
    await live.patch('/v1/inventory/settings').send({ default_location_id: location }).expect(200);
    const allocated = async () =>
      (
        (await live.get(`/v1/inventory/balances?product_id=${productId}&location_id=${location}`).expect(200))
          .body.data as { allocated: number }[]
      ).reduce((sum, b) => sum + b.allocated, 0);

    const lines = Array.from({ length: 600 }, (_, i) => ({
      ...lineOf(i),
      product_id: productId,
      quantity: 1 + (i % 3),
    }));
    const draft = (await live.post('/v1/orders').send({ account_id: accountId, lines }).expect(201)).body;
    const start = await allocated();
    await live.post(`/v1/orders/${draft.id}/confirm`).send({}).expect(200);
    const committed = lines.reduce((sum, l) => sum + l.quantity, 0);
    expect(await allocated()).toBe(start + committed);

    const extra = { ...lineOf(7), product_id: productId, quantity: 4 };
    const added = (await live.post(`/v1/orders/${draft.id}/lines`).send(extra).expect(201)).body;
    expect(await allocated()).toBe(start + committed + 4);
    expect(totalsOf(added)).toEqual(expectedTotals([...lines, extra]));

    await live.post(`/v1/orders/${draft.id}/cancel`).send({}).expect(200);
    expect(await allocated()).toBe(start);
  });
});
