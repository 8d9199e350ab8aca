import { api } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';

/** Sales documents reach the ledger through the posting service, and AR reconciles with the invoices. */
describe('receivables across sales and accounting', () => {
  let app: TestApp;
  let live: ReturnType<typeof api>;
  const fixtures = () => app.seed.fixtures as Record<string, never>;

  beforeAll(async () => {
    app = await startTestApp();
    live = api(app, app.seed.entities.primary.keys.live);
  });
  afterAll(() => app.close());

  const reconcileAr = async () => {
    const res = await live.get('/v1/reports/subledger-reconciliation?subledger=ar').expect(200);
    return res.body.ar as { gl_balance: number; subledger_balance: number; variance: number };
  };

  it('reconciles the seeded invoices with the receivables account', async () => {
    const ar = await reconcileAr();
    expect(ar.subledger_balance).toBeGreaterThan(0);
    expect(ar).toMatchObject({ variance: 0, gl_balance: ar.subledger_balance });
  });

  it('posts an invoice and its card payment, and AR still reconciles to zero variance', async () => {
    const before = await reconcileAr();
    const { product_id, account_id } = fixtures();
    const draft = await live
      .post('/v1/orders')
      .send({
        document_type: 'invoice',
        account_id,
        lines: [{ product_id, quantity: 4, unit_price: 12.345 }],
      })
      .expect(201);
    const invoice = await live.post(`/v1/orders/${draft.body.id}/confirm`).expect(200);
    expect(invoice.body.payment_status).toBe('unpaid');
    const total = invoice.body.total as number;

    const issued = await reconcileAr();
    expect(issued.variance).toBe(0);
    expect(Math.round((issued.subledger_balance - before.subledger_balance) * 100)).toBe(
      Math.round(total * 100),
    );

    await live
      .post(`/v1/orders/${invoice.body.id}/payments`)
      .send({
        method: 'card',
        amount: 10,
        card: { number: '4242424242424242', exp_month: 12, exp_year: 2030 },
      })
      .expect(201);
    const paid = await reconcileAr();
    expect(paid.variance).toBe(0);
    expect(Math.round((issued.subledger_balance - paid.subledger_balance) * 100)).toBe(1000);

    const entries = await live.get(`/v1/journal-entries?limit=100`).expect(200);
    const sources = entries.body.data.filter(
      (e: { source_id: string; source_type: string }) =>
        e.source_id === invoice.body.id || e.source_type === 'PAYMENT',
    );
    expect(sources.map((e: { source_type: string }) => e.source_type)).toEqual(
      expect.arrayContaining(['INVOICE', 'PAYMENT']),
    );
  });

  it('matches the seeded bank deposit to its invoices through the sales port', async () => {
    const deposit = fixtures().bank_deposit as unknown as {
      id: string;
      account_id: string;
      amount: number;
      invoices: { id: string; amount_due: number }[];
    };
    const matched = await live
      .post(`/v1/accounting/bank-transactions/${deposit.id}/match-deposit-to-invoices`)
      .send({
        account_id: deposit.account_id,
        applications: deposit.invoices.map((i) => ({ invoice_id: i.id, amount: i.amount_due })),
        route_unapplied: null,
      })
      .expect(200);
    expect(matched.body.status).toBe('matched');
    for (const { id } of deposit.invoices) {
      const invoice = await live.get(`/v1/orders/${id}`).expect(200);
      expect(invoice.body).toMatchObject({ payment_status: 'paid', amount_due: 0 });
    }
    expect((await reconcileAr()).variance).toBe(0);
    const again = await live
      .post(`/v1/accounting/bank-transactions/${deposit.id}/match-deposit-to-invoices`)
      .send({
        account_id: deposit.account_id,
        applications: deposit.invoices.map((i) => ({ invoice_id: i.id, amount: i.amount_due })),
      });
    expect(again.status).toBe(409);
  });
});
