import { FulfillmentSettingsRepository } from '#contexts/fulfillment';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { asEntity } from '../support/as-entity';
import { api, expectError } from '../support/http';
import { expectEvent } from '../support/expect-event';
import { outbox } from '../support/outbox';
import { startTestApp, TestApp } from '../support/test-app';
import { Client, confirmedOrder, entriesOf, fixturesOf } from './support';

describe('packages', () => {
  let app: TestApp;
  let live: Client;
  let fx: ReturnType<typeof fixturesOf>;

  beforeAll(async () => {
    app = await startTestApp();
    live = api(app, app.seed.entities.primary.keys.live);
    fx = fixturesOf(app);
  });
  afterAll(() => app.close());

  const widgetOrder = (quantity = 3) =>
    confirmedOrder(live, fx.accountId, [{ product_id: fx.productId, quantity }]);

  it('creates a packing package with its items and a sequential number', async () => {
    const order = await widgetOrder();
    const res = await live
      .post('/v1/packages')
      .send({ order_id: order.id, weight: 2.5, items: [{ order_item_id: order.items[0].id, quantity: 2 }] })
      .expect(201);
    expect(res.body).toMatchObject({
      object: 'package',
      status: 'packing',
      order_id: order.id,
      weight_lb: 2.5,
      // The QA widget is flagged freight_insurance: its units are covered at their net price.
      insurance: {
        active: true,
        bought: false,
        source: 'product_toggle',
        covered_item_count: 1,
        provider: null,
      },
      label: null,
      items: [{ order_item_id: order.items[0].id, product_id: fx.productId, quantity: 2 }],
    });
    expect(res.body.package_number).toMatch(/^QA1-PKG-\d{6}$/);
    const second = await live.post('/v1/packages').send({ order_id: order.id }).expect(201);
    const n = (s: string) => Number(s.slice(-6));
    expect(n(second.body.package_number)).toBe(n(res.body.package_number) + 1);
    await live.get(`/v1/packages/${res.body.id}`).expect(200);
  });

  it('keeps every digit of a package number past six digits', async () => {
    const last = (await live.get('/v1/fulfillment/settings').expect(200)).body.last_package_number as number;
    // No route sets the counter: the settings repository does, as the primary entity's live work.
    const setCounter = (n: number) =>
      asEntity(app, () =>
        app.get(TransactionHost).run(async () => {
          const settings = app.get(FulfillmentSettingsRepository);
          const row = await settings.current();
          row.lastPackageNumber = n;
          await settings.save(row);
        }),
      );
    await setCounter(1234566);
    try {
      const order = await widgetOrder(1);
      const res = await live.post('/v1/packages').send({ order_id: order.id }).expect(201);
      expect(res.body.package_number).toBe('QA1-PKG-1234567');
    } finally {
      await setCounter(last);
    }
  });

  it('quotes rates, buys a PDF label and fulfills: stock, ledger, outbox, order fulfilled', async () => {
    const order = await widgetOrder(2);
    const pkg = (
      await live
        .post('/v1/packages')
        .send({ order_id: order.id, weight: 3, items: [{ order_item_id: order.items[0].id, quantity: 1 }] })
        .expect(201)
    ).body;
    const rates = (await live.get(`/v1/packages/${pkg.id}/rates`).expect(200)).body;
    expect(rates.object).toBe('list');
    expect(new Set(rates.data.map((r: { carrier: string }) => r.carrier))).toEqual(
      new Set(['usps', 'ups', 'fedex']),
    );
    const usps = rates.data.find(
      (r: { carrier: string; service_level: string }) =>
        r.carrier === 'usps' && r.service_level === 'priority',
    );
    const created = await live
      .post('/v1/packages')
      .send({
        order_id: order.id,
        weight: 3,
        items: [{ order_item_id: order.items[0].id, quantity: 1 }],
        buy_label: true,
        rate_object_id: usps.rate_object_id,
        fulfill_after_label: true,
      })
      .expect(201);
    expect(created.body).toMatchObject({
      status: 'shipped',
      carrier: 'usps',
      service_level: 'priority',
      ship_cost: usps.amount,
    });
    expect(created.body.tracking_number).toMatch(/^9400\d{18}$/);
    const file = await live.get(`/v1/packages/${created.body.id}/label`).expect(200);
    expect(file.headers['content-type']).toContain('application/pdf');
    const entries = await entriesOf(app, 'FULFILLMENT', created.body.id);
    expect(entries).toHaveLength(1);
    const [entry] = entries;
    expect(entry.total_debit).toBe(entry.total_credit);
    const roles = Object.fromEntries(entry.lines.map((l) => [l.role, l]));
    expect(Number(roles.cogs.debit)).toBeGreaterThan(0);
    expect(roles.cogs.debit).toBe(roles.inventory.credit);
    expect(roles.unbilled_receivables.debit).toBe(roles.revenue.credit);
    expect(roles.receivables).toBeUndefined();
    const events = await outbox(app).eventsOf(created.body.id);
    expect(events.map((e) => e.type)).toEqual([
      'fulfillment.package.created',
      'fulfillment.label.purchased',
      'fulfillment.shipped',
    ]);
    // The number is taken as the transaction commits: every record and event shows it, none the
    // token that stood for it until then.
    expect(events.map((e) => e.data.object.package_number)).toEqual(
      Array(3).fill(created.body.package_number),
    );
    expect(JSON.stringify(events)).not.toContain('late:');
    const number = created.body.package_number as string;
    await expectEvent(app, 'fulfillment.package.created', {
      id: created.body.id,
      order_id: order.id,
      package_number: number,
      items: [{ order_item_id: order.items[0].id, quantity: 1 }],
    });
    await expectEvent(app, 'fulfillment.label.purchased', {
      id: created.body.id,
      package_number: number,
      carrier: 'usps',
      service_level: 'priority',
      ship_cost: usps.amount,
    });
    await expectEvent(app, 'fulfillment.shipped', {
      id: created.body.id,
      package_number: number,
      status: 'shipped',
      tracking_number: created.body.tracking_number,
    });
    const stored = (await live.get(`/v1/packages/${created.body.id}`).expect(200)).body;
    expect(stored.package_number).toBe(created.body.package_number);
    expect(entry.description).toBe(`Fulfillment of package ${created.body.package_number}`);
    expect(entry.entry_number).not.toMatch(/pending/);
    const notifications = (await live.get(`/v1/packages/${created.body.id}/notifications`).expect(200)).body
      .data as { subject: string; body: string }[];
    expect(notifications.map((n) => n.subject)).toEqual([
      `Your order has shipped: package ${created.body.package_number}`,
    ]);
    expect(notifications[0].body).toContain(`Package ${created.body.package_number} of your order`);
    // The first package still holds one unit; the order is fulfilled once it ships too.
    expect((await live.get(`/v1/orders/${order.id}`).expect(200)).body.order_status).toBe('confirmed');
    await live
      .post(`/v1/packages/${pkg.id}/ship`)
      .send({ carrier: 'ups', tracking_number: '1ZMANUAL0001' })
      .expect(200);
    expect((await live.get(`/v1/orders/${order.id}`).expect(200)).body.order_status).toBe('fulfilled');
  });

  it('rejects bad items', async () => {
    const order = await widgetOrder(3);
    expectError(
      await live
        .post('/v1/packages')
        .send({ order_id: order.id, items: [{ order_item_id: order.items[0].id, quantity: 0 }] }),
      400,
      'parameter_invalid',
      { param: 'items[0].quantity' },
    );
    expectError(
      await live
        .post('/v1/packages')
        .send({ order_id: order.id, items: [{ order_item_id: order.items[0].id, quantity: 1.5 }] }),
      400,
      'parameter_invalid',
      { param: 'items[0].quantity' },
    );
    expectError(
      await live
        .post('/v1/packages')
        .send({ order_id: order.id, items: [{ order_item_id: order.items[0].id, quantity: 4 }] }),
      422,
      'quantity_exceeds_remaining',
      { param: 'items[0].quantity' },
    );
    expectError(await live.post('/v1/packages').send({ order_id: fx.quoteId }), 422, 'order_not_confirmed');
  });

  it('recognises revenue once: an invoice of a partly shipped sales order posts only the rest', async () => {
    const order = await confirmedOrder(live, fx.accountId, [
      { product_id: fx.productId, quantity: 2, unit_price: 20, tax_rate: 10 },
    ]);
    const pkg = (
      await live
        .post('/v1/packages')
        .send({ order_id: order.id, items: [{ order_item_id: order.items[0].id, quantity: 1 }] })
        .expect(201)
    ).body;
    await live
      .post(`/v1/packages/${pkg.id}/ship`)
      .send({ carrier: 'usps', tracking_number: '9400REV' })
      .expect(200);
    const [shipped] = await entriesOf(app, 'FULFILLMENT', pkg.id);
    const roleOf = (lines: { role: string | null; debit: number; credit: number }[], role: string) =>
      lines.find((l) => l.role === role)!;
    expect(Number(roleOf(shipped.lines, 'revenue').credit)).toBe(20);
    const invoice = (await live.post(`/v1/orders/${order.id}/convert`).send({}).expect(200)).body;
    await live.post(`/v1/orders/${invoice.id}/confirm`).send({}).expect(200);
    const [invoiced] = await entriesOf(app, 'INVOICE', invoice.id);
    expect(Number(roleOf(invoiced.lines, 'revenue').credit)).toBe(20);
    expect(Number(roleOf(invoiced.lines, 'tax').credit)).toBe(2);
    // The customer owes the whole invoice; the shipped half leaves unbilled receivables.
    expect(Number(roleOf(invoiced.lines, 'receivables').debit)).toBe(44);
    expect(Number(roleOf(invoiced.lines, 'unbilled_receivables').credit)).toBe(22);
  });
});
