import { CONTROL_ROLE_CHART } from './support/control-role-chart';
import { CollectionsService } from '#contexts/sales';
import { OperatorService } from '#platform/auth/operator.service';
import { api } from '../support/http';
import { listAll } from '../support/list-all';
import { startTestApp, TestApp } from '../support/test-app';

interface Variances {
  is_reconciled: boolean;
  ar: { gl_balance: number; subledger_balance: number; variance: number };
  ap: { variance: number };
  inventory: { variance: number };
}

/**
 * A whole order-to-cash-to-refund cycle on a new entity with its own chart of accounts (stock,
 * order, ship, invoice, partial payment, overdue at a chosen instant, late fee, payment in full,
 * return, receipt, refund): after every step the subledger reconciliation holds (receivables, payables and inventory each equal
 * to their control account), and the ledger's debits equal its credits.
 */
describe('order to cash to refund on a fresh entity', () => {
  let app: TestApp;
  let client: ReturnType<typeof api>;

  beforeAll(async () => {
    app = await startTestApp();
    const created = await app.get(OperatorService).createEntity({
      code: `cycle${Date.now() % 1_000_000}`,
      name: 'Cycle Trading Ltd',
      baseCurrency: 'USD',
    });
    client = api(app, created.key.secret);
  });
  afterAll(() => app.close());

  const chart = CONTROL_ROLE_CHART;

  /** The reconciliation now, with the step named so a failure says where the books drifted. */
  const reconciliation = async (step: string): Promise<Variances> => {
    const report = (await client.get('/v1/reports/subledger-reconciliation').expect(200)).body as Variances;
    expect({
      step,
      is_reconciled: report.is_reconciled,
      variances: [report.ar.variance, report.ap.variance, report.inventory.variance],
    }).toEqual({ step, is_reconciled: true, variances: [0, 0, 0] });
    return report;
  };

  /** Debits minus credits over every line of every journal entry, through the API. */
  const trialBalance = async () => {
    const entries = await listAll<{ id: string }>(client, '/v1/journal-entries');
    let net = 0;
    for (const e of entries) {
      const { lines } = (await client.get(`/v1/journal-entries/${e.id}`).expect(200)).body as {
        lines: { debit_amount: number; credit_amount: number }[];
      };
      for (const l of lines) net += Math.round(l.debit_amount * 100) - Math.round(l.credit_amount * 100);
    }
    return { entries: entries.length, net };
  };

  it('keeps every subledger equal to its control account from order to refund', async () => {
    for (const account of chart)
      await client.post('/v1/accounting/ledger-accounts').send(account).expect(201);
    // This year and the next: the late fee below is charged 32 days from today.
    const year = new Date().getUTCFullYear();
    for (const y of [year, year + 1])
      await client
        .post('/v1/accounting/fiscal-years')
        .send({ name: `FY${y}`, start_date: `${y}-01-01`, end_date: `${y}-12-31` })
        .expect(201);
    await reconciliation('empty books');

    const location = (
      await client.post('/v1/locations').send({ name: 'Main', code: 'MAIN', type: 'warehouse' }).expect(201)
    ).body.id as string;
    const product = (
      await client
        .post('/v1/products')
        .send({ sku: 'CYCLE-1', name: 'Cycle widget', type: 'standard', list_price: 40 })
        .expect(201)
    ).body.id as string;
    await client
      .post('/v1/inventory/adjustments')
      .send({
        product_id: product,
        location_id: location,
        quantity: 10,
        unit_cost: 15,
        reason: 'opening stock',
      })
      .expect(201);
    await reconciliation('stocked');

    const terms = (
      await client.post('/v1/payment-terms').send({ name: 'Net 30', code: 'N30', net_days: 30 }).expect(201)
    ).body.id as string;
    const account = (
      await client.post('/v1/accounts').send({ name: 'Cycle customer', payment_terms_id: terms }).expect(201)
    ).body.id;
    const draft = (
      await client
        .post('/v1/orders')
        .send({
          account_id: account,
          lines: [{ product_id: product, quantity: 3, unit_price: 40, tax_rate: 10 }],
        })
        .expect(201)
    ).body;
    const order = (await client.post(`/v1/orders/${draft.id}/confirm`).send({}).expect(200)).body;
    expect(order.total).toBe(132);
    const pkg = (
      await client
        .post('/v1/packages')
        .send({
          order_id: order.id,
          location_id: location,
          items: [{ order_item_id: order.lines[0].id, quantity: 3 }],
        })
        .expect(201)
    ).body;
    await client
      .post(`/v1/packages/${pkg.id}/ship`)
      .send({ carrier: 'ups', tracking_number: '1ZCYCLE' })
      .expect(200);
    // Shipped, not invoiced: the amount is in unbilled receivables, not on the AR line.
    expect((await reconciliation('shipped')).ar).toMatchObject({ gl_balance: 0, subledger_balance: 0 });
    const balanceId = (await client.get(`/v1/inventory/balances?product_id=${product}`).expect(200)).body
      .data[0].id as string;
    const demand = async () => {
      const b = (await client.get(`/v1/inventory/balances/${balanceId}`).expect(200)).body;
      return { run_rate_30: b.run_rate_30, on_hand: b.on_hand };
    };
    expect(await demand()).toEqual({ run_rate_30: 0.1, on_hand: 7 });

    const invoice = (await client.post(`/v1/orders/${order.id}/convert`).send({}).expect(200)).body;
    await client.post(`/v1/orders/${invoice.id}/confirm`).send({}).expect(200);
    expect((await reconciliation('invoiced')).ar).toMatchObject({ gl_balance: 132, subledger_balance: 132 });

    await client.post(`/v1/orders/${invoice.id}/payments`).send({ method: 'cash', amount: 50 }).expect(201);
    expect((await reconciliation('partly paid')).ar).toMatchObject({ gl_balance: 82, subledger_balance: 82 });

    // Overdue: the collections sweep run 32 days from now (two days past the net-30 due date)
    // marks the invoice overdue and charges the entity's flat late fee of 10 as its own invoice.
    await client
      .patch('/v1/accounting/settings')
      .send({
        late_fee_type: 'flat',
        late_fee_amount: 10,
        late_fee_grace_days: 0,
        late_fee_frequency: 'per_invoice',
      })
      .expect(200);
    const later = new Date(Date.now() + 32 * 24 * 3600 * 1000);
    await app.get(CollectionsService).runDue(later);
    await app.get(CollectionsService).runDue(later);
    expect((await client.get(`/v1/orders/${invoice.id}`).expect(200)).body).toMatchObject({
      collection_status: 'overdue',
    });
    const lateFees = (await client.get('/v1/orders?document_type=late_fee_invoice&limit=10').expect(200)).body
      .data as { id: string; total: number; source_order_id: string }[];
    expect(lateFees.map((f) => [f.total, f.source_order_id])).toEqual([[10, invoice.id]]);
    expect((await reconciliation('late fee')).ar).toMatchObject({ gl_balance: 92, subledger_balance: 92 });
    await client
      .post(`/v1/orders/${lateFees[0].id}/payments`)
      .send({ method: 'cash', amount: 10 })
      .expect(201);
    expect((await reconciliation('late fee paid')).ar).toMatchObject({
      gl_balance: 82,
      subledger_balance: 82,
    });

    await client
      .post(`/v1/orders/${invoice.id}/payments`)
      .send({
        method: 'card',
        card: { number: '4242424242424242', exp_month: 12, exp_year: new Date().getUTCFullYear() + 2 },
      })
      .expect(201);
    expect((await reconciliation('paid')).ar).toMatchObject({ gl_balance: 0, subledger_balance: 0 });
    // Paid in full: no longer overdue.
    expect((await client.get(`/v1/orders/${invoice.id}`).expect(200)).body).toMatchObject({
      collection_status: 'current',
    });

    const ret = (
      await client
        .post('/v1/returns')
        .send({
          account_id: account,
          order_id: order.id,
          lines: [{ order_item_id: order.lines[0].id, quantity: 2 }],
          reason: 'Changed mind',
        })
        .expect(201)
    ).body;
    await reconciliation('return authorised');
    await client
      .post(`/v1/returns/${ret.id}/receive`)
      .send({ package_id: pkg.id, items: [{ package_item_id: pkg.items[0].id, quantity: 2 }] })
      .expect(200);
    await reconciliation('received');
    // A return is not negative demand: the shipped units still count.
    expect(await demand()).toEqual({ run_rate_30: 0.1, on_hand: 9 });

    const refunded = (await client.post(`/v1/returns/${ret.id}/refund`).send({}).expect(200)).body;
    expect(refunded).toMatchObject({ status: 'refunded', amount_refunded: 88 });
    expect((await reconciliation('refunded')).ar).toMatchObject({ gl_balance: 0, subledger_balance: 0 });
    expect((await client.get(`/v1/orders/${invoice.id}`).expect(200)).body).toMatchObject({
      amount_credited: 88,
      amount_paid: 44,
      amount_due: 0,
      payment_status: 'paid',
    });

    const balance = await trialBalance();
    expect(balance.entries).toBeGreaterThanOrEqual(8);
    expect(balance.net).toBe(0);
  });
});
