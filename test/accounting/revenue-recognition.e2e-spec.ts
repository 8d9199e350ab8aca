import { OperatorService } from '#platform/auth/operator.service';
import { api } from '../support/http';
import { waitFor } from '../support/eventually';
import { listAll } from '../support/list-all';
import { startTestApp, TestApp } from '../support/test-app';
import { CONTROL_ROLE_CHART } from './support/control-role-chart';

/** A journal entry with its lines, as `GET /v1/journal-entries/{id}` shows it. */
interface Entry {
  id: string;
  source_type: string;
  source_id: string | null;
  batch_id: string | null;
  lines: { account_id: string; debit_amount: number; credit_amount: number }[];
}

interface Reconciliation {
  ar: { gl_balance: number; subledger_balance: number; variance: number };
  ap: { variance: number };
  inventory: { variance: number };
}

const SANDBOX_KEY = 'sandbox_plaintext_secret_9f3k';
const cents = (n: number) => Math.round(n * 100);

/**
 * Revenue is recognised once per unit whatever the order of operations (ship, invoice, partial,
 * import, void), on a new entity with a chart holding every control role of the QA chart. The
 * expected balances are computed here from the documents (price, tax rate, units), and the
 * ledger is read through the journal-entries API only.
 */
describe('revenue recognition by whichever document comes first', () => {
  let app: TestApp;
  let client: ReturnType<typeof api>;
  let location: string;
  let product: string;
  let customer: string;
  const roleOf = new Map<string, string | null>();
  const entryCache = new Map<string, Entry>();

  const chart = CONTROL_ROLE_CHART;

  /** Every posted line summed per control role, in cents, debit positive (credit-normal roles negated below). */
  const balances = async (): Promise<Record<string, number>> => {
    const listed = await listAll<{ id: string; status: string }>(client, '/v1/journal-entries?status=posted');
    const sums: Record<string, number> = {};
    for (const { id } of listed) {
      let entry = entryCache.get(id);
      if (!entry) {
        entry = (await client.get(`/v1/journal-entries/${id}`).expect(200)).body as Entry;
        entryCache.set(id, entry);
      }
      for (const l of entry.lines) {
        const role = roleOf.get(l.account_id) ?? l.account_id;
        sums[role] = (sums[role] ?? 0) + cents(l.debit_amount) - cents(l.credit_amount);
      }
    }
    return {
      revenue: -(sums.revenue ?? 0),
      tax: -(sums.tax ?? 0),
      receivables: sums.receivables ?? 0,
      unbilled: sums.unbilled_receivables ?? 0,
      clearing: sums.channel_clearing ?? 0,
      cogs: sums.cogs ?? 0,
      trial: Object.values(sums).reduce((a, b) => a + b, 0),
    };
  };

  /** The change of each balance since `before`. */
  const since = async (before: Record<string, number>) => {
    const now = await balances();
    return Object.fromEntries(Object.entries(now).map(([k, v]) => [k, v - (before[k] ?? 0)]));
  };

  const arVariance = async () => {
    const report = (await client.get('/v1/reports/subledger-reconciliation').expect(200))
      .body as Reconciliation;
    return [report.ar.variance, report.ap.variance, report.inventory.variance];
  };

  const newOrder = async (quantity: number, productId = product, price = 40, taxRate = 10) => {
    const draft = (
      await client
        .post('/v1/orders')
        .send({
          account_id: customer,
          lines: [{ product_id: productId, quantity, unit_price: price, tax_rate: taxRate }],
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
    return pkg.id as string;
  };

  /** Converts the order to an invoice, optionally billing fewer units, and issues it. */
  const invoice = async (orderId: string, quantity?: { productId: string; units: number; price: number }) => {
    const draft = (await client.post(`/v1/orders/${orderId}/convert`).send({}).expect(200)).body;
    if (quantity)
      await client
        .patch(`/v1/orders/${draft.id}`)
        .send({
          lines: [
            {
              product_id: quantity.productId,
              quantity: quantity.units,
              unit_price: quantity.price,
              tax_rate: 10,
            },
          ],
        })
        .expect(200);
    return (await client.post(`/v1/orders/${draft.id}/confirm`).send({}).expect(200)).body as {
      id: string;
      total: number;
      amount_due: number;
      amount_paid: number;
    };
  };

  beforeAll(async () => {
    app = await startTestApp();
    const created = await app.get(OperatorService).createEntity({
      code: `rev${Date.now() % 1_000_000}`,
      name: 'Recognition Trading Ltd',
      baseCurrency: 'USD',
    });
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
    // The sandbox storefront sells QA-WIDGET-001: the imported orders' lines find it by SKU.
    const widget = (
      await client
        .post('/v1/products')
        .send({ sku: 'QA-WIDGET-001', name: 'QA widget', type: 'standard', list_price: 27.5 })
        .expect(201)
    ).body.id;
    product = (
      await client
        .post('/v1/products')
        .send({ sku: 'REV-1', name: 'Recognised widget', type: 'standard', list_price: 40 })
        .expect(201)
    ).body.id;
    for (const p of [product, widget])
      await client
        .post('/v1/inventory/adjustments')
        .send({ product_id: p, location_id: location, quantity: 100, unit_cost: 15, reason: 'opening stock' })
        .expect(201);
    customer = (await client.post('/v1/accounts').send({ name: 'Recognition customer' }).expect(201)).body.id;
  }, 180_000);
  afterAll(() => app?.close());

  it('invoice before shipping: the invoice recognises, the shipment posts cost only, and the books reconcile', async () => {
    const order = await newOrder(3);
    const before = await balances();
    const issued = await invoice(order.id);
    // 3 × 40 = 120 net, 10 % tax = 12, total 132.
    expect(issued.total).toBe(132);
    expect(await since(before)).toMatchObject({ revenue: 12000, tax: 1200, receivables: 13200, unbilled: 0 });
    const pkg = await ship(order.id, order.lines[0].id, 3);
    expect(await since(before)).toMatchObject({
      revenue: 12000,
      tax: 1200,
      receivables: 13200,
      unbilled: 0,
      cogs: 4500,
      trial: 0,
    });
    expect(await arVariance()).toEqual([0, 0, 0]);

    // The shipment's entry carries a batch_id, and the batch filter finds it.
    const fulfillment = [...entryCache.values()].find(
      (e) => e.source_type === 'FULFILLMENT' && e.source_id === pkg,
    )!;
    expect(fulfillment.batch_id).toEqual(expect.any(String));
    const batch = (await client.get(`/v1/journal-entries?batch_id=${fulfillment.batch_id}`).expect(200)).body
      .data as { id: string }[];
    expect(batch.map((e) => e.id)).toEqual([fulfillment.id]);

    // Voiding the invoice leaves the shipped units recognised (by the shipment now) and unbilled.
    await client.post(`/v1/orders/${issued.id}/void`).send({}).expect(200);
    expect(await since(before)).toMatchObject({ revenue: 12000, tax: 1200, receivables: 0, unbilled: 13200 });
    expect(await arVariance()).toEqual([0, 0, 0]);
  });

  it('partial shipments and invoices interleaved recognise each unit once', async () => {
    const order = await newOrder(3);
    const before = await balances();
    await ship(order.id, order.lines[0].id, 1);
    expect(await since(before)).toMatchObject({ revenue: 4000, tax: 400, unbilled: 4400, receivables: 0 });
    // The invoice bills all three units: one shipped (moved from unbilled), two recognised now.
    await invoice(order.id);
    expect(await since(before)).toMatchObject({ revenue: 12000, tax: 1200, unbilled: 0, receivables: 13200 });
    await ship(order.id, order.lines[0].id, 2);
    expect(await since(before)).toMatchObject({
      revenue: 12000,
      tax: 1200,
      unbilled: 0,
      receivables: 13200,
      cogs: 4500,
      trial: 0,
    });
    expect(await arVariance()).toEqual([0, 0, 0]);
  });

  it('an invoice of part of the order, between shipments: revenue is the value of max(shipped, invoiced)', async () => {
    const order = await newOrder(3);
    const before = await balances();
    await ship(order.id, order.lines[0].id, 1);
    await invoice(order.id, { productId: product, units: 2, price: 40 });
    // Two units invoiced, one shipped: two recognised, both billed.
    expect(await since(before)).toMatchObject({ revenue: 8000, tax: 800, unbilled: 0, receivables: 8800 });
    await ship(order.id, order.lines[0].id, 2);
    // Three shipped, two billed: the third unit is recognised by its shipment and waits unbilled.
    expect(await since(before)).toMatchObject({
      revenue: 12000,
      tax: 1200,
      unbilled: 4400,
      receivables: 8800,
    });
    expect(await arVariance()).toEqual([0, 0, 0]);
  });

  it('a return before invoicing reverses what shipping recognised, its receipt entries share a batch', async () => {
    const order = await newOrder(3);
    const before = await balances();
    const pkgId = await ship(order.id, order.lines[0].id, 3);
    const pkg = (await client.get(`/v1/packages/${pkgId}`).expect(200)).body;
    const ret = (
      await client
        .post('/v1/returns')
        .send({
          account_id: customer,
          order_id: order.id,
          lines: [{ order_item_id: order.lines[0].id, quantity: 1 }],
        })
        .expect(201)
    ).body;
    const receipt = (
      await client
        .post(`/v1/returns/${ret.id}/receive`)
        .send({ package_id: pkgId, items: [{ package_item_id: pkg.items[0].id, quantity: 1 }] })
        .expect(200)
    ).body;
    // Two units stay shipped: 80 net, 8 tax, unbilled 88; the returned unit's cost (15) is back in stock.
    expect(await since(before)).toMatchObject({
      revenue: 8000,
      tax: 800,
      unbilled: 8800,
      cogs: 3000,
      trial: 0,
    });
    await balances();
    const receiptEntries = [...entryCache.values()].filter((e) => e.source_id === receipt.id);
    expect(receiptEntries.map((e) => e.source_type).sort()).toEqual(['COGS_REVERSAL', 'RETURN']);
    expect(new Set(receiptEntries.map((e) => e.batch_id)).size).toBe(1);
    const batch = (await client.get(`/v1/journal-entries?batch_id=${receiptEntries[0].batch_id}`).expect(200))
      .body.data as { id: string }[];
    expect(batch.map((e) => e.id).sort()).toEqual(receiptEntries.map((e) => e.id).sort());
    // The invoice then bills all three units: the returned one is recognised again, billed.
    await invoice(order.id);
    expect(await since(before)).toMatchObject({ revenue: 12000, tax: 1200, unbilled: 0, receivables: 13200 });
    expect(await arVariance()).toEqual([0, 0, 0]);
  });

  it('imported orders: the import recognises, a later shipment or invoice does not, and receivables reconcile', async () => {
    const fees = [...roleOf.keys()].find((id) => roleOf.get(id) === null)!;
    const connect = async (name: string) =>
      (
        await client
          .post('/v1/integrations')
          .send({
            type: 'storefront',
            name,
            credentials: { api_key: SANDBOX_KEY },
            settings: { fee_account_id: fees },
          })
          .expect(201)
      ).body.id as string;
    const imported = async (integrationId: string) => {
      const run = (await client.post(`/v1/integrations/${integrationId}/import-orders`).expect(200)).body;
      expect(run.counts).toMatchObject({ orders_imported: 1, payouts_imported: 1 });
      const orders = (await listAll(client, '/v1/orders')).filter(
        (o) => (o.metadata as Record<string, string>)?.integration_id === integrationId,
      );
      expect(orders).toHaveLength(1);
      return { runId: run.id as string, order: orders[0] as unknown as { id: string; total: number } };
    };

    // Imported then shipped. The sandbox order: 2 × 27.50 = 55, no tax; its payout 55 gross, 1.90 fees.
    const before = await balances();
    const shop = await connect('Sandbox shop one');
    const first = await imported(shop);
    expect(first.order.total).toBe(55);
    // Import and payout in one run: revenue 55; clearing debited 55 and credited the gross 55.
    expect(await since(before)).toMatchObject({ revenue: 5500, receivables: 0, clearing: 0, unbilled: 0 });
    expect(await arVariance()).toEqual([0, 0, 0]);
    const runEntries = (await client.get(`/v1/journal-entries?batch_id=${first.runId}`).expect(200)).body
      .data as { source_type: string }[];
    expect(runEntries.map((e) => e.source_type).sort()).toEqual(['STOREFRONT_IMPORT', 'STOREFRONT_PAYOUT']);

    const confirmed = (await client.post(`/v1/orders/${first.order.id}/confirm`).send({}).expect(200)).body;
    await ship(first.order.id, confirmed.lines[0].id, 2);
    expect(await since(before)).toMatchObject({
      revenue: 5500,
      receivables: 0,
      unbilled: 0,
      cogs: 3000,
      trial: 0,
    });
    expect(await arVariance()).toEqual([0, 0, 0]);

    // Imported then invoiced: the invoice is settled by the channel, nothing is recognised again.
    const second = await imported(await connect('Sandbox shop two'));
    await client.post(`/v1/orders/${second.order.id}/confirm`).send({}).expect(200);
    const issued = await invoice(second.order.id);
    expect(issued).toMatchObject({ total: 55, amount_paid: 55, amount_due: 0 });
    expect(await since(before)).toMatchObject({ revenue: 11000, receivables: 0, unbilled: 0, trial: 0 });
    expect(await arVariance()).toEqual([0, 0, 0]);
  });
  it('a shipment and an invoice of the same order at the same instant see each other', async () => {
    const order = await newOrder(3);
    const before = await balances();
    // One unit shipped first, so the line's counters exist when the two race.
    await ship(order.id, order.lines[0].id, 1);
    const draft = (await client.post(`/v1/orders/${order.id}/convert`).send({}).expect(200)).body;
    const pkg = (
      await client
        .post('/v1/packages')
        .send({
          order_id: order.id,
          location_id: location,
          items: [{ order_item_id: order.lines[0].id, quantity: 2 }],
        })
        .expect(201)
    ).body;
    await Promise.all([
      client.post(`/v1/orders/${draft.id}/confirm`).send({}).expect(200),
      client
        .post(`/v1/packages/${pkg.id}/ship`)
        .send({ carrier: 'ups', tracking_number: '1ZRACE' })
        .expect(200),
    ]);
    expect(await since(before)).toMatchObject({
      revenue: 12000,
      tax: 1200,
      unbilled: 0,
      receivables: 13200,
      trial: 0,
    });
  });

  it('a shipment that meets the counters of a line being created by another transaction waits for them and counts what it committed', async () => {
    // Line: 3 units, net 120, tax 12. Another recogniser's transaction (held open here in SQL,
    // since no route can pause one) creates the line's counters with 2 units shipped; the
    // shipment of 2 more waits for it, then recognises only the third unit (the counter stops at
    // the line's quantity): net 40, tax 4. Had it not waited it would recognise 2 units (80 + 8);
    // had it skipped the line, nothing.
    const order = await newOrder(3);
    const before = await balances();
    const pkg = (
      await client
        .post('/v1/packages')
        .send({
          order_id: order.id,
          location_id: location,
          items: [{ order_item_id: order.lines[0].id, quantity: 2 }],
        })
        .expect(201)
    ).body;
    const other = await app.db.connect();
    try {
      await other.query('BEGIN');
      await other.query(
        `INSERT INTO order_line_revenue (id, entity_id, livemode, order_id, shipped, billed)
         SELECT id, entity_id, livemode, order_id, 2, 0 FROM order_lines WHERE id = $1`,
        [order.lines[0].id],
      );
      const shipped = client
        .post(`/v1/packages/${pkg.id}/ship`)
        .send({ carrier: 'ups', tracking_number: '1ZHELD' })
        .then((res) => res);
      await waitFor(
        async () =>
          (
            await app.db.query(
              `SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%order_line_revenue%'`,
            )
          ).rowCount,
        { label: 'the shipment waiting for the counters' },
      );
      await other.query('COMMIT');
      expect((await shipped).status).toBe(200);
    } finally {
      other.release();
    }
    expect(await since(before)).toMatchObject({ revenue: 4000, tax: 400, unbilled: 4400, trial: 0 });
  });

  it('with the QA seed, importing from the seeded storefront integration leaves the AR variance at zero', async () => {
    const seeded = api(app, app.seed.entities.primary.keys.live);
    const integrationId = (app.seed.fixtures as Record<string, unknown>).integration_id as string;
    const variance = async () =>
      (
        (await seeded.get('/v1/reports/subledger-reconciliation?subledger=ar').expect(200))
          .body as Reconciliation
      ).ar.variance;
    expect(await variance()).toBe(0);
    const run = (await seeded.post(`/v1/integrations/${integrationId}/import-orders`).expect(200)).body;
    expect(run.counts.orders_imported).toBe(1);
    expect(await variance()).toBe(0);
  });
});
