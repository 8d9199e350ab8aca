import { OperatorService } from '#platform/auth/operator.service';
import { api } from '../support/http';
import { listAll } from '../support/list-all';
import { setEntityTimezone } from '../support/out-of-band-writes';
import { startTestApp, TestApp } from '../support/test-app';
import { CONTROL_ROLE_CHART } from './support/control-role-chart';

/** A journal entry with its lines, as `GET /v1/journal-entries/{id}` shows it. */
interface Entry {
  id: string;
  source_type: string;
  source_id: string | null;
  entry_date: string;
  lines: { account_id: string; debit_amount: number; credit_amount: number }[];
}

interface Invoice {
  id: string;
  total: number;
  amount_due: number;
  amount_paid: number;
  amount_credited: number;
}

const cents = (n: number) => Math.round(n * 100);

/**
 * The books of returns refunded on invoiced orders: the credit memo reverses exactly the revenue
 * recognised for the units it takes back, and every entry of a refund is dated by the entity's
 * business day. Expected balances are computed here from prices, tax rates and units; the ledger
 * is read through the journal-entries API only.
 */
describe('books of return refunds', () => {
  let app: TestApp;
  let client: ReturnType<typeof api>;
  let entityId: string;
  let location: string;
  let product: string;
  let customer: string;
  const roleOf = new Map<string, string | null>();
  const entryCache = new Map<string, Entry>();

  const chart = CONTROL_ROLE_CHART;

  /** Every posted entry, read once each. */
  const entries = async (): Promise<Entry[]> => {
    const listed = await listAll<{ id: string }>(client, '/v1/journal-entries?status=posted');
    const out: Entry[] = [];
    for (const { id } of listed) {
      let entry = entryCache.get(id);
      if (!entry) {
        entry = (await client.get(`/v1/journal-entries/${id}`).expect(200)).body as Entry;
        entryCache.set(id, entry);
      }
      out.push(entry);
    }
    return out;
  };

  /** Balances per control role in cents (credit-normal roles as positive credits). */
  const balances = async (): Promise<Record<string, number>> => {
    const sums: Record<string, number> = {};
    for (const entry of await entries())
      for (const l of entry.lines) {
        const role = roleOf.get(l.account_id) ?? l.account_id;
        sums[role] = (sums[role] ?? 0) + cents(l.debit_amount) - cents(l.credit_amount);
      }
    return {
      revenue: -(sums.revenue ?? 0),
      tax: -(sums.tax ?? 0),
      receivables: sums.receivables ?? 0,
      unbilled: sums.unbilled_receivables ?? 0,
      cash: sums.cash ?? 0,
      credit: -(sums.customer_credit ?? 0),
      trial: Object.values(sums).reduce((a, b) => a + b, 0),
    };
  };
  const since = async (before: Record<string, number>) => {
    const now = await balances();
    return Object.fromEntries(Object.entries(now).map(([k, v]) => [k, v - (before[k] ?? 0)]));
  };
  const arVariance = async () =>
    (await client.get('/v1/reports/subledger-reconciliation?subledger=ar').expect(200)).body.ar.variance;

  /** A confirmed order of `quantity` units at 40 with 10 % tax. */
  const newOrder = async (quantity: number) => {
    const draft = (
      await client
        .post('/v1/orders')
        .send({
          account_id: customer,
          lines: [{ product_id: product, quantity, unit_price: 40, tax_rate: 10 }],
        })
        .expect(201)
    ).body;
    return (await client.post(`/v1/orders/${draft.id}/confirm`).send({}).expect(200)).body as {
      id: string;
      lines: { id: string }[];
    };
  };
  const ship = async (orderId: string, lineId: string, quantity: number) => {
    const pkg = (
      await client
        .post('/v1/packages')
        .send({ order_id: orderId, location_id: location, items: [{ order_item_id: lineId, quantity }] })
        .expect(201)
    ).body;
    await client
      .post(`/v1/packages/${pkg.id}/ship`)
      .send({ carrier: 'ups', tracking_number: `1Z${pkg.id.slice(-8)}` })
      .expect(200);
    return (await client.get(`/v1/packages/${pkg.id}`).expect(200)).body as {
      id: string;
      items: { id: string }[];
    };
  };
  /** Converts the order to an invoice, optionally of fewer units, and issues it. */
  const invoice = async (orderId: string, units?: number): Promise<Invoice> => {
    const draft = (await client.post(`/v1/orders/${orderId}/convert`).send({}).expect(200)).body;
    if (units !== undefined)
      await client
        .patch(`/v1/orders/${draft.id}`)
        .send({ lines: [{ product_id: product, quantity: units, unit_price: 40, tax_rate: 10 }] })
        .expect(200);
    return (await client.post(`/v1/orders/${draft.id}/confirm`).send({}).expect(200)).body as Invoice;
  };
  /** A return of `quantity` units of the order's first line, received back from `pkg`. */
  const returned = async (
    order: { id: string; lines: { id: string }[] },
    pkg: { id: string; items: { id: string }[] },
    quantity: number,
  ) => {
    const ret = (
      await client
        .post('/v1/returns')
        .send({
          account_id: customer,
          order_id: order.id,
          lines: [{ order_item_id: order.lines[0].id, quantity }],
        })
        .expect(201)
    ).body;
    await client
      .post(`/v1/returns/${ret.id}/receive`)
      .send({ package_id: pkg.id, items: [{ package_item_id: pkg.items[0].id, quantity }] })
      .expect(200);
    return ret.id as string;
  };

  beforeAll(async () => {
    app = await startTestApp();
    const created = await app.get(OperatorService).createEntity({
      code: `rb${Date.now() % 1_000_000}`,
      name: 'Return Books Ltd',
      baseCurrency: 'USD',
    });
    entityId = created.entity.id;
    client = api(app, created.key.secret);
    for (const account of chart) {
      const made = (await client.post('/v1/accounting/ledger-accounts').send(account).expect(201)).body;
      roleOf.set(made.id, made.control_role);
    }
    const year = new Date().getUTCFullYear();
    for (const y of [year - 1, year, year + 1])
      await client
        .post('/v1/accounting/fiscal-years')
        .send({ name: `FY${y}`, start_date: `${y}-01-01`, end_date: `${y}-12-31` })
        .expect(201);
    location = (
      await client.post('/v1/locations').send({ name: 'Main', code: 'MAIN', type: 'warehouse' }).expect(201)
    ).body.id;
    product = (
      await client
        .post('/v1/products')
        .send({ sku: 'RB-1', name: 'Returnable widget', type: 'standard', list_price: 40 })
        .expect(201)
    ).body.id;
    // The sandbox storefront sells QA-WIDGET-001: imported orders' lines find it by SKU.
    const widget = (
      await client
        .post('/v1/products')
        .send({ sku: 'QA-WIDGET-001', name: 'QA widget', type: 'standard', list_price: 27.5 })
        .expect(201)
    ).body.id;
    for (const p of [product, widget])
      await client
        .post('/v1/inventory/adjustments')
        .send({ product_id: p, location_id: location, quantity: 100, unit_cost: 15, reason: 'opening stock' })
        .expect(201);
    customer = (await client.post('/v1/accounts').send({ name: 'Returning customer' }).expect(201)).body.id;
  }, 180_000);
  afterAll(() => app?.close());

  it('dates invoices, payments, credit memos, refunds and credits by the business day of the entity', async () => {
    // A zone whose day differs from the UTC day right now: UTC+14 from 10:00 UTC, else UTC-11.
    const zone = new Date().getUTCHours() >= 10 ? 'Pacific/Kiritimati' : 'Pacific/Pago_Pago';
    const day = () => new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(new Date());
    expect(day()).not.toBe(new Date().toISOString().slice(0, 10));
    await setEntityTimezone(app, entityId, zone);
    try {
      const seen = new Set((await entries()).map((e) => e.id));
      const order = await newOrder(2);
      const issued = await invoice(order.id);
      await client.post(`/v1/orders/${issued.id}/payments`).send({ method: 'cash', amount: 88 }).expect(201);
      const pkg = await ship(order.id, order.lines[0].id, 2);
      const first = await returned(order, pkg, 1);
      await client.post(`/v1/returns/${first}/refund`).send({ method: 'original_payment' }).expect(200);
      const second = await returned(order, pkg, 1);
      await client.post(`/v1/returns/${second}/refund`).send({ method: 'customer_credit' }).expect(200);
      const expected = day();
      const posted = (await entries()).filter((e) => !seen.has(e.id));
      const types = posted.map((e) => e.source_type);
      for (const type of ['INVOICE', 'PAYMENT', 'CREDIT_MEMO', 'REFUND', 'CREDIT_APPLIED'])
        expect(types).toContain(type);
      expect(posted.map((e) => [e.source_type, e.entry_date])).toEqual(
        posted.map((e) => [e.source_type, expected]),
      );
    } finally {
      await setEntityTimezone(app, entityId, 'UTC');
    }
  });

  it('a credit memo takes back only returned units the invoice still bills, reversing exactly their revenue', async () => {
    const order = await newOrder(3);
    const before = await balances();
    const pkg = await ship(order.id, order.lines[0].id, 3);
    // Two of the three shipped units invoiced (88); the third waits unbilled (44).
    const issued = await invoice(order.id, 2);
    expect(issued.total).toBe(88);
    // Two units come back: one of them was never billed, so the receipt reverses its revenue (44).
    const ret = await returned(order, pkg, 2);
    expect(await since(before)).toMatchObject({ revenue: 8000, tax: 800, unbilled: 0, receivables: 8800 });
    // The credit memo takes back the one billed unit: 40 net, 4 tax, nothing more.
    const refunded = (await client.post(`/v1/returns/${ret}/refund`).send({}).expect(200)).body;
    expect(refunded.refunds[0]).toMatchObject({ amount: 44, amount_due_reduced: 44, refunded_amount: 0 });
    // The customer keeps one unit, billed 44: revenue 40, tax 4, owed 44.
    expect(await since(before)).toMatchObject({
      revenue: 4000,
      tax: 400,
      unbilled: 0,
      receivables: 4400,
      trial: 0,
    });
    expect((await client.get(`/v1/orders/${issued.id}`).expect(200)).body).toMatchObject({ amount_due: 44 });
    expect(await arVariance()).toBe(0);
    // Nothing billed is left to take back.
    const again = await client.post(`/v1/returns/${ret}/refund`).send({});
    expect([again.status, again.body.code]).toEqual([422, 'amount_exceeds_limit']);
  });

  it('partial credit memos: an allowance first, then the unit it completes, revenue reversed once', async () => {
    const order = await newOrder(3);
    const issued = await invoice(order.id);
    const before = await balances();
    const pkg = await ship(order.id, order.lines[0].id, 3);
    const ret = await returned(order, pkg, 1);
    // 20 of the returned unit's 44: an allowance, in the proportion of its net and tax.
    await client.post(`/v1/returns/${ret}/refund`).send({ amount: 20 }).expect(200);
    expect(await since(before)).toMatchObject({ revenue: -1818, tax: -182, receivables: -2000, trial: 0 });
    // The rest (24) completes the unit: the memos together reverse exactly its 40 and 4.
    const rest = (await client.post(`/v1/returns/${ret}/refund`).send({}).expect(200)).body;
    expect(rest).toMatchObject({ status: 'refunded', amount_refunded: 44 });
    expect(await since(before)).toMatchObject({ revenue: -4000, tax: -400, receivables: -4400, unbilled: 0 });
    expect((await client.get(`/v1/orders/${issued.id}`).expect(200)).body).toMatchObject({ amount_due: 88 });
    expect(await arVariance()).toBe(0);
    // The line's recognition counters: two units stay shipped and two billed (the unit is un-billed once).
    const {
      rows: [counters],
    } = await app.db.query('SELECT shipped, billed FROM order_line_revenue WHERE id = $1', [
      order.lines[0].id,
    ]);
    expect([Number(counters.shipped), Number(counters.billed)]).toEqual([2, 2]);
  });

  it('a return of an imported order invoiced as settled by the channel refunds to credit, never to a payment', async () => {
    const fees = [...roleOf.keys()].find((id) => roleOf.get(id) === null)!;
    const integration = (
      await client
        .post('/v1/integrations')
        .send({
          type: 'storefront',
          name: 'Sandbox shop',
          credentials: { api_key: 'sandbox_plaintext_secret_9f3k' },
          settings: { fee_account_id: fees },
        })
        .expect(201)
    ).body.id as string;
    await client.post(`/v1/integrations/${integration}/import-orders`).expect(200);
    const imported = (
      await listAll<{ id: string; metadata: Record<string, string> }>(client, '/v1/orders')
    ).find((o) => o.metadata?.integration_id === integration)!;
    const order = (await client.post(`/v1/orders/${imported.id}/confirm`).send({}).expect(200)).body as {
      id: string;
      account_id: string;
      lines: { id: string }[];
    };
    const pkg = await ship(order.id, order.lines[0].id, 2);
    // The sandbox order: 2 × 27.50, no tax; the channel settled it, so the invoice is paid without a payment.
    const issued = await invoice(order.id);
    expect(issued).toMatchObject({ total: 55, amount_paid: 55, amount_due: 0 });
    const ret = (
      await client
        .post('/v1/returns')
        .send({
          account_id: order.account_id,
          order_id: order.id,
          lines: [{ order_item_id: order.lines[0].id, quantity: 1 }],
        })
        .expect(201)
    ).body.id as string;
    await client
      .post(`/v1/returns/${ret}/receive`)
      .send({ package_id: pkg.id, items: [{ package_item_id: pkg.items[0].id, quantity: 1 }] })
      .expect(200);
    const before = await balances();
    // No payment of ours holds the channel's money: refused, and nothing moves.
    const refused = await client.post(`/v1/returns/${ret}/refund`).send({ method: 'original_payment' });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'invalid_state' });
    expect(refused.body.hint).toMatch(/customer_credit/);
    expect(await since(before)).toMatchObject({ revenue: 0, receivables: 0, credit: 0 });
    // To the customer's credit: the unit's 27.50 leaves revenue and is owed as credit.
    const refunded = (
      await client.post(`/v1/returns/${ret}/refund`).send({ method: 'customer_credit' }).expect(200)
    ).body;
    expect(refunded.refunds[0]).toMatchObject({ amount: 27.5, amount_due_reduced: 0, refunded_amount: 27.5 });
    expect(await since(before)).toMatchObject({ revenue: -2750, receivables: 0, credit: 2750, trial: 0 });
    expect((await client.get(`/v1/accounts/${order.account_id}`).expect(200)).body.credit_balance).toBe(27.5);
    expect((await client.get(`/v1/orders/${issued.id}`).expect(200)).body).toMatchObject({
      amount_credited: 27.5,
      amount_paid: 27.5,
      amount_due: 0,
    });
    expect(await arVariance()).toBe(0);
  });

  it('lines holding shipped or billed units cannot be replaced, removed or repriced', async () => {
    const order = await newOrder(3);
    const before = await balances();
    await ship(order.id, order.lines[0].id, 1);
    const line = `/v1/orders/${order.id}/lines/${order.lines[0].id}`;
    const refusals = [
      await client
        .patch(`/v1/orders/${order.id}`)
        .send({ lines: [{ product_id: product, quantity: 3, unit_price: 40, tax_rate: 10 }] }),
      await client.delete(line),
      await client.patch(line).send({ unit_price: 50 }),
      await client.patch(line).send({ quantity: 1 }),
    ];
    for (const refused of refusals) {
      expect([refused.status, refused.body.code]).toEqual([409, 'invalid_state']);
      expect(refused.body.hint).toContain(order.lines[0].id);
    }
    // Its description may still change; the line keeps its id and its counters.
    await client.patch(line).send({ description: 'Recognised widget, blue' }).expect(200);
    const kept = (await client.get(`/v1/orders/${order.id}`).expect(200)).body;
    expect(kept.lines.map((l: { id: string }) => l.id)).toEqual([order.lines[0].id]);
    // The other two units ship and are recognised once each: 3 × 40 in all.
    await ship(order.id, order.lines[0].id, 2);
    await invoice(order.id);
    expect(await since(before)).toMatchObject({ revenue: 12000, tax: 1200, unbilled: 0, receivables: 13200 });
  });
});
