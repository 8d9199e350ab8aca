import { CollectionsService } from '#contexts/sales';
import { api, expectError } from '../support/http';
import { journalEntriesOf } from '../support/journal';
import { outbox } from '../support/outbox';
import { startTestApp, TestApp } from '../support/test-app';

interface Invoice {
  id: string;
  due_date: string | null;
  collection_status: string | null;
  overdue_at: string | null;
  amount_due: number;
}

const DAY_MS = 86_400_000;
/** Noon UTC `days` after `day` (the seeded entity keeps its books in UTC). */
const noonAfter = (day: string, days: number) => new Date(Date.parse(`${day}T12:00:00Z`) + days * DAY_MS);
const today = () => new Date().toISOString().slice(0, 10);

describe('collections: overdue invoices and late fees', () => {
  let app: TestApp;
  let live: ReturnType<typeof api>;
  let accountId: string;
  let seq = 0;

  beforeAll(async () => {
    app = await startTestApp();
    live = api(app, app.seed.entities.primary.keys.live);
    const terms = await live
      .post('/v1/payment-terms')
      .send({ name: 'Net 30', code: 'N30-COLL', net_days: 30 })
      .expect(201);
    accountId = (
      await live
        .post('/v1/accounts')
        .send({ name: 'Late payer', payment_terms_id: terms.body.id })
        .expect(201)
    ).body.id;
  });
  let second: TestApp | undefined;
  afterAll(async () => {
    await second?.close();
    await app.close();
  });

  const runAt = (instant: Date, on: TestApp = app) => on.get(CollectionsService).runDue(instant);
  const policy = (body: Record<string, unknown>) =>
    live.patch('/v1/accounting/settings').send(body).expect(200);
  const issue = async (amount: number, account = accountId): Promise<Invoice> => {
    const created = await live
      .post('/v1/orders')
      .send({
        document_type: 'invoice',
        account_id: account,
        lines: [{ description: `Consulting ${++seq}`, quantity: 1, unit_price: amount }],
      })
      .expect(201);
    return (await live.post(`/v1/orders/${created.body.id}/confirm`).expect(200)).body as Invoice;
  };
  const get = async (id: string) => (await live.get(`/v1/orders/${id}`).expect(200)).body as Invoice;
  const eventsOf = (id: string) => outbox(app).typesOf(id);
  /** The late-fee invoices raised for an invoice, through GET /orders. */
  const lateFeesOf = async (invoiceId: string) => {
    const page = await live.get('/v1/orders?document_type=late_fee_invoice&limit=100').expect(200);
    return (
      page.body.data as { id: string; source_order_id: string; total: number; order_status: string }[]
    ).filter((o) => o.source_order_id === invoiceId);
  };

  it("dates an issued invoice by its account's payment terms and marks it overdue from the day after, once", async () => {
    await policy({ late_fee_type: 'none' });
    const invoice = await issue(100);
    expect(invoice).toMatchObject({ collection_status: 'current', overdue_at: null });
    const dueDate = invoice.due_date!;
    expect(Date.parse(dueDate) - Date.parse(today())).toBe(30 * DAY_MS);

    await runAt(noonAfter(dueDate, 0));
    expect(await get(invoice.id)).toMatchObject({ collection_status: 'current', overdue_at: null });

    const instant = noonAfter(dueDate, 1);
    await runAt(instant);
    await runAt(noonAfter(dueDate, 2));
    expect(await get(invoice.id)).toMatchObject({
      collection_status: 'overdue',
      overdue_at: instant.toISOString(),
    });
    const overdue = (await outbox(app).all('invoice.overdue')).filter((e) => e.data.object.id === invoice.id);
    expect(overdue).toHaveLength(1);
    expect(overdue[0].data).toMatchObject({
      object: { id: invoice.id, collection_status: 'overdue', due_date: dueDate },
      previous_attributes: { collection_status: 'current', overdue_at: null },
    });
    expect(await lateFeesOf(invoice.id)).toEqual([]);
  });

  it('leaves an invoice of an account without payment terms without a due date, never overdue', async () => {
    const plain = (await live.post('/v1/accounts').send({ name: 'No terms' }).expect(201)).body.id;
    const invoice = await issue(50, plain);
    expect(invoice).toMatchObject({ due_date: null, collection_status: 'current' });
    await runAt(noonAfter(today(), 400));
    expect((await get(invoice.id)).collection_status).toBe('current');
    expect(await eventsOf(invoice.id)).not.toContain('invoice.overdue');
  });

  it('charges a flat fee after the grace days: a late-fee invoice posted as LATE_FEE, invoice.late_fee_applied', async () => {
    await policy({
      late_fee_type: 'flat',
      late_fee_amount: 25,
      late_fee_grace_days: 5,
      late_fee_frequency: 'per_invoice',
    });
    const invoice = await issue(400);
    await runAt(noonAfter(invoice.due_date!, 5));
    expect((await get(invoice.id)).collection_status).toBe('overdue');
    expect(await lateFeesOf(invoice.id)).toEqual([]);

    await runAt(noonAfter(invoice.due_date!, 6));
    await runAt(noonAfter(invoice.due_date!, 60));
    const fees = await lateFeesOf(invoice.id);
    expect(fees).toHaveLength(1);
    expect(fees[0]).toMatchObject({ total: 25, order_status: 'confirmed' });
    const fee = (await live.get(`/v1/orders/${fees[0].id}`).expect(200)).body;
    expect(fee).toMatchObject({ document_type: 'late_fee_invoice', account_id: accountId, amount_due: 25 });
    const [entry] = await journalEntriesOf(app, ['LATE_FEE'], [fee.id]);
    expect(entry).toMatchObject({ source_type: 'LATE_FEE', total_debit: 25, total_credit: 25 });
    const applied = (await outbox(app).all('invoice.late_fee_applied')).filter(
      (e) => e.data.object.source_order_id === invoice.id,
    );
    expect(applied.map((e) => e.data.object.id)).toEqual([fee.id]);
  });

  it('charges a percent of the amount due, raised to the minimum', async () => {
    await policy({
      late_fee_type: 'percent',
      late_fee_amount: 1.5,
      late_fee_minimum: 10,
      late_fee_grace_days: 0,
    });
    const small = await issue(100);
    const large = await issue(2000);
    await runAt(noonAfter(small.due_date!, 1));
    expect((await lateFeesOf(small.id)).map((f) => f.total)).toEqual([10]);
    expect((await lateFeesOf(large.id)).map((f) => f.total)).toEqual([30]);
  });

  it('charges once per period while the invoice stays overdue when the policy says per_period', async () => {
    await policy({
      late_fee_type: 'flat',
      late_fee_amount: 7,
      late_fee_minimum: null,
      late_fee_grace_days: 0,
      late_fee_frequency: 'per_period',
      late_fee_period_days: 30,
    });
    const invoice = await issue(300);
    const due = invoice.due_date!;
    await runAt(noonAfter(due, 1));
    await runAt(noonAfter(due, 30));
    expect(await lateFeesOf(invoice.id)).toHaveLength(1);
    await runAt(noonAfter(due, 31));
    await runAt(noonAfter(due, 32));
    expect((await lateFeesOf(invoice.id)).map((f) => f.total)).toEqual([7, 7]);
  });

  it('moves an invoice out of overdue once a payment clears it; a partial payment leaves it overdue', async () => {
    await policy({ late_fee_type: 'none' });
    const invoice = await issue(90);
    await runAt(noonAfter(invoice.due_date!, 1));
    await live.post(`/v1/orders/${invoice.id}/payments`).send({ method: 'cash', amount: 40 }).expect(201);
    expect(await get(invoice.id)).toMatchObject({ collection_status: 'overdue', amount_due: 50 });
    await live.post(`/v1/orders/${invoice.id}/payments`).send({ method: 'cash', amount: 50 }).expect(201);
    expect(await get(invoice.id)).toMatchObject({
      collection_status: 'current',
      overdue_at: null,
      amount_due: 0,
    });
    // A paid invoice is not found overdue again.
    await runAt(noonAfter(invoice.due_date!, 10));
    expect((await eventsOf(invoice.id)).filter((t) => t === 'invoice.overdue')).toHaveLength(1);
  });

  it('shows and validates the late-fee policy in the accounting settings', async () => {
    const shown = await policy({
      late_fee_type: 'percent',
      late_fee_amount: 2,
      late_fee_minimum: 5,
      late_fee_grace_days: 3,
      late_fee_frequency: 'per_period',
      late_fee_period_days: 15,
    });
    expect(shown.body).toMatchObject({
      late_fee_type: 'percent',
      late_fee_amount: 2,
      late_fee_minimum: 5,
      late_fee_grace_days: 3,
      late_fee_frequency: 'per_period',
      late_fee_period_days: 15,
    });
    expectError(
      await live.patch('/v1/accounting/settings').send({ late_fee_type: 'flat', late_fee_amount: null }),
      400,
      'parameter_invalid',
      { param: 'late_fee_amount' },
    );
    expectError(
      await live.patch('/v1/accounting/settings').send({ late_fee_amount: 101 }),
      400,
      'parameter_invalid',
      {
        param: 'late_fee_amount',
      },
    );
    expectError(
      await live.patch('/v1/accounting/settings').send({ late_fee_type: 'weekly' }),
      400,
      'parameter_invalid',
      {
        param: 'late_fee_type',
      },
    );
  });
  it('marks and charges once when two app instances run the job at the same instant, and again', async () => {
    await policy({
      late_fee_type: 'flat',
      late_fee_amount: 12,
      late_fee_grace_days: 0,
      late_fee_frequency: 'per_invoice',
    });
    const invoices = [await issue(100), await issue(200), await issue(300)];
    // A second instance of the app on the same database (closed with the first, in afterAll).
    second = await startTestApp({}, { sameDatabaseAs: app });
    const instant = noonAfter(invoices[0].due_date!, 3);
    const runs = await Promise.all([runAt(instant), runAt(instant, second), runAt(instant)]);
    await runAt(instant, second);
    // Every invoice was marked by exactly one of the runs (the others skipped it or found it done).
    expect(runs.reduce((n, r) => n + r.overdue, 0)).toBeGreaterThanOrEqual(invoices.length);
    for (const invoice of invoices) {
      expect((await eventsOf(invoice.id)).filter((t) => t === 'invoice.overdue')).toHaveLength(1);
      expect(await lateFeesOf(invoice.id)).toHaveLength(1);
    }
    const entries = await journalEntriesOf(
      app,
      ['LATE_FEE'],
      (await Promise.all(invoices.map((i) => lateFeesOf(i.id)))).flat().map((f) => f.id),
    );
    expect(entries).toHaveLength(invoices.length);
  });
});
