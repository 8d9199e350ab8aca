import { expectEvent } from '../support/expect-event';
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { api, expectError } from '../support/http';
import { listAll, Listed } from '../support/list-all';
import { outbox } from '../support/outbox';
import { startTestApp, TestApp } from '../support/test-app';
import { ledgerFixtures, LedgerFixtures, trialBalance } from './support/accounting-fixtures';
import { issuedInvoice } from './support/receivables';

type Report = { as_of_date: string; is_reconciled: boolean } & Record<
  'ar' | 'ap' | 'inventory',
  { gl_balance: number; subledger_balance: number; variance: number }
>;

describe('vendor bills and the subledger reconciliation', () => {
  let app: TestApp;
  let live: ReturnType<typeof api>;
  let fx: LedgerFixtures;
  let today: string;

  beforeAll(async () => {
    app = await startTestApp();
    live = api(app, app.seed.entities.primary.keys.live);
    fx = ledgerFixtures(app);
    today = (await live.get('/v1/accounting/settings').expect(200)).body.current_business_day;
  });
  afterAll(() => app.close());

  const report = async (client = live, query = ''): Promise<Report> =>
    (await client.get(`/v1/reports/subledger-reconciliation${query}`).expect(200)).body;
  const bill = (
    amount: number,
    extra: Record<string, unknown> = {},
    client = live,
    debit = fx.accounts.expense,
  ) =>
    client
      .post('/v1/vendor-bills')
      .send({ vendor_name: 'Acme Supplies', amount, debit_account_id: debit, bill_date: today, ...extra });

  it('records a bill (AP_BILL), pays it in two parts (AP_PAYMENT) and reconciles AP at zero variance', async () => {
    const start = await report(live, '?subledger=ap');
    const created = await bill(830.25, {
      bill_number: 'INV-7781',
      due_date: '2099-01-01',
      description: 'Packaging',
    }).expect(201);
    expect(created.body).toMatchObject({
      object: 'vendor_bill',
      vendor_name: 'Acme Supplies',
      bill_number: 'INV-7781',
      bill_date: today,
      amount: 830.25,
      amount_paid: 0,
      amount_due: 830.25,
      status: 'open',
      currency: 'USD',
      payments: [],
    });
    const entry = (await live.get(`/v1/journal-entries/${created.body.journal_entry_id}`).expect(200)).body;
    expect(entry).toMatchObject({ source_type: 'AP_BILL', source_id: created.body.id, status: 'posted' });
    expect(
      entry.lines.map((l: { account_id: string; debit_amount: number; credit_amount: number }) => [
        l.account_id,
        l.debit_amount,
        l.credit_amount,
      ]),
    ).toEqual([
      [fx.accounts.expense, 830.25, 0],
      [fx.accounts.payables, 0, 830.25],
    ]);
    const mid = await report(live, '?subledger=ap');
    expect(mid.ap.gl_balance - start.ap.gl_balance).toBeCloseTo(830.25, 4);
    expect(mid.ap.variance).toBe(0);

    const part = await live
      .post(`/v1/vendor-bills/${created.body.id}/payments`)
      .send({ amount: 400, reference: 'CHK-1' })
      .expect(201);
    expect(part.body).toMatchObject({ status: 'partially_paid', amount_paid: 400, amount_due: 430.25 });
    expect(part.body.payments).toHaveLength(1);
    expect(part.body.payments[0]).toMatchObject({
      amount: 400,
      payment_date: today,
      bank_account_id: fx.accounts.cash,
      reference: 'CHK-1',
    });
    const payEntry = (
      await live.get(`/v1/journal-entries/${part.body.payments[0].journal_entry_id}`).expect(200)
    ).body;
    expect(payEntry.source_type).toBe('AP_PAYMENT');
    expect(
      payEntry.lines.map((l: { account_id: string; debit_amount: number; credit_amount: number }) => [
        l.account_id,
        l.debit_amount,
        l.credit_amount,
      ]),
    ).toEqual([
      [fx.accounts.payables, 400, 0],
      [fx.accounts.cash, 0, 400],
    ]);
    const over = await live.post(`/v1/vendor-bills/${created.body.id}/payments`).send({ amount: 430.26 });
    expectError(over, 422, 'amount_exceeds_limit', { param: 'amount' });
    expect(over.body.amount_due).toBe(430.25);
    const paid = await live
      .post(`/v1/vendor-bills/${created.body.id}/payments`)
      .send({ amount: 430.25 })
      .expect(201);
    expect(paid.body).toMatchObject({ status: 'paid', amount_due: 0, amount_paid: 830.25 });
    expectError(
      await live.post(`/v1/vendor-bills/${created.body.id}/payments`).send({ amount: 1 }),
      409,
      'invalid_state',
    );
    expectError(await live.post(`/v1/vendor-bills/${created.body.id}/void`), 409, 'invalid_state');

    const events = await outbox(app).eventsOf(created.body.id);
    expect(events.map((e) => e.type)).toEqual([
      'purchasing.vendor_bill.created',
      'purchasing.vendor_bill.paid',
    ]);
    await expectEvent(app, 'purchasing.vendor_bill.created', { id: created.body.id, amount: 830.25 });
    await expectEvent(app, 'purchasing.vendor_bill.paid', {
      id: created.body.id,
      status: 'paid',
      amount_paid: 830.25,
      amount_due: 0,
    });
    const end = await report(live, '?subledger=ap');
    expect(end.ap).toEqual({
      gl_balance: start.ap.gl_balance,
      subledger_balance: start.ap.subledger_balance,
      variance: 0,
    });
    const retrieved = (await live.get(`/v1/vendor-bills/${created.body.id}`).expect(200)).body;
    expect(retrieved.payments).toHaveLength(2);
    expect(await trialBalance(app, app.seed.entities.primary.id)).toBe('0.0000');
  });

  it('voids an unpaid bill with a reversing entry and lists by status', async () => {
    const created = (await bill(99.99).expect(201)).body;
    const voided = await live.post(`/v1/vendor-bills/${created.id}/void`).expect(200);
    expect(voided.body).toMatchObject({ status: 'voided', voided_on: today, amount_due: 0 });
    const reversal = (await live.get(`/v1/journal-entries/${voided.body.void_journal_entry_id}`).expect(200))
      .body;
    expect(
      reversal.lines.map((l: { account_id: string; debit_amount: number; credit_amount: number }) => [
        l.account_id,
        l.debit_amount,
        l.credit_amount,
      ]),
    ).toEqual([
      [fx.accounts.payables, 99.99, 0],
      [fx.accounts.expense, 0, 99.99],
    ]);
    expectError(await live.post(`/v1/vendor-bills/${created.id}/void`), 409, 'invalid_state');
    expectError(
      await live.post(`/v1/vendor-bills/${created.id}/payments`).send({ amount: 1 }),
      409,
      'invalid_state',
    );
    const events = await outbox(app).eventsOf(created.id);
    expect(events.map((e) => e.type)).toEqual([
      'purchasing.vendor_bill.created',
      'purchasing.vendor_bill.voided',
    ]);
    await expectEvent(app, 'purchasing.vendor_bill.voided', { id: created.id, status: 'voided' });
    const list = (await live.get('/v1/vendor-bills?status=voided').expect(200)).body.data;
    expect(list.map((b: { id: string }) => b.id)).toEqual([created.id]);
    expect((await report(live, '?subledger=ap')).ap.variance).toBe(0);
  });

  it('never pays a bill beyond its amount under concurrent payments', async () => {
    const created = (await bill(100).expect(201)).body;
    const results = await Promise.all(
      Array.from({ length: 5 }, () =>
        live.post(`/v1/vendor-bills/${created.id}/payments`).send({ amount: 30 }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 201, 201, 422, 422]);
    const after = (await live.get(`/v1/vendor-bills/${created.id}`).expect(200)).body;
    expect(after).toMatchObject({ amount_paid: 90, amount_due: 10, status: 'partially_paid' });
    expect(after.payments).toHaveLength(3);
    expect((await report(live, '?subledger=ap')).ap.variance).toBe(0);
  });

  it('validates bills and payments, with scopes and isolation', async () => {
    expectError(await bill(0), 400, 'parameter_invalid', { param: 'amount' });
    expectError(await bill(10, { debit_account_id: randomUUID() }), 400, 'parameter_invalid', {
      param: 'debit_account_id',
    });
    expectError(await bill(10, { debit_account_id: fx.accounts.payables }), 400, 'parameter_invalid', {
      param: 'debit_account_id',
    });
    expectError(await bill(10, { due_date: '2000-01-01' }), 400, 'parameter_invalid', { param: 'due_date' });
    expectError(await bill(10, { bill_date: fx.closedPeriod.start_date }), 422, 'period_closed');
    expectError(await bill(10, { vendor: 'x' }), 400, 'parameter_unknown', { param: 'vendor' });
    const missing = await live
      .post('/v1/vendor-bills')
      .send({ amount: 10, debit_account_id: fx.accounts.expense });
    expect(missing.status).toBe(400);
    expect(missing.body.param).toBe('vendor_name');
    const created = (await bill(50, {}, live, fx.accounts.inventory).expect(201)).body;
    expectError(
      await live
        .post(`/v1/vendor-bills/${created.id}/payments`)
        .send({ amount: 5, bank_account_id: fx.accounts.expense }),
      400,
      'parameter_invalid',
      {
        param: 'bank_account_id',
      },
    );
    expectError(
      await live
        .post(`/v1/vendor-bills/${created.id}/payments`)
        .send({ amount: 5, payment_date: '2000-01-01' }),
      400,
      'parameter_invalid',
      {
        param: 'payment_date',
      },
    );
    const ordersOnly = api(app, app.seed.entities.primary.keys.orders_only);
    expectError(await ordersOnly.get('/v1/vendor-bills'), 403, 'insufficient_scope');
    const readOnly = api(app, app.seed.entities.primary.keys.read_only);
    await readOnly.get(`/v1/vendor-bills/${created.id}`).expect(200);
    expectError(
      await readOnly.post(`/v1/vendor-bills/${created.id}/payments`).send({ amount: 1 }),
      403,
      'insufficient_scope',
    );
    expectError(
      await api(app, app.seed.entities.secondary.keys.live).get(`/v1/vendor-bills/${created.id}`),
      404,
      'not_found',
    );
    expectError(
      await api(app, app.seed.entities.secondary.keys.live)
        .post(`/v1/vendor-bills/${created.id}/payments`)
        .send({ amount: 1 }),
      404,
      'not_found',
    );
    expectError(
      await api(app, app.seed.entities.primary.keys.test).get(`/v1/vendor-bills/${created.id}`),
      404,
      'not_found',
    );
    const expanded = (await live.get(`/v1/vendor-bills/${created.id}?expand[]=debit_account`).expect(200))
      .body;
    expect(expanded.debit_account).toMatchObject({ id: fx.accounts.inventory });
  });

  it('reports AR, AP and inventory as of the business day; variance is GL minus subledger', async () => {
    const all = await report();
    expect(Object.keys(all).sort()).toEqual([
      'ap',
      'ar',
      'as_of_date',
      'inventory',
      'is_reconciled',
      'object',
    ]);
    expect(all.as_of_date).toBe(today);
    // The seeded invoices are posted to receivables when issued: AR reconciles.
    expect(all.ar.subledger_balance).toBeGreaterThan(0);
    expect(all.ar).toEqual({
      gl_balance: all.ar.subledger_balance,
      subledger_balance: all.ar.subledger_balance,
      variance: 0,
    });
    // An invoice issued through the order routes moves both sides by its amount due.
    await issuedInvoice(live, app.seed.fixtures.account_id as string, 80);
    const issued = (await report(live, '?subledger=ar')).ar;
    expect(issued).toEqual({
      gl_balance: Math.round((all.ar.gl_balance + 80) * 10_000) / 10_000,
      subledger_balance: Math.round((all.ar.subledger_balance + 80) * 10_000) / 10_000,
      variance: 0,
    });
    // An entry on the receivables account by hand moves only the GL: variance is GL minus subledger.
    await live
      .post('/v1/journal-entries')
      .send({
        entry_date: today,
        description: 'Receivable written by hand',
        lines: [
          { account_id: fx.accounts.receivables, debit_amount: 33.5 },
          { account_id: fx.accounts.revenue, credit_amount: 33.5 },
        ],
      })
      .expect(201);
    const drifted = await report(live, '?subledger=ar');
    expect(drifted.ar).toEqual({
      gl_balance: Math.round((issued.gl_balance + 33.5) * 10_000) / 10_000,
      subledger_balance: issued.subledger_balance,
      variance: 33.5,
    });
    expect(drifted.is_reconciled).toBe(false);

    const inventoryBefore = (await report(live, '?subledger=inventory')).inventory;
    await live
      .post('/v1/journal-entries')
      .send({
        entry_date: today,
        description: 'Stock count',
        lines: [
          { account_id: fx.accounts.inventory, debit_amount: 125 },
          { account_id: fx.accounts.expense, credit_amount: 125 },
        ],
      })
      .expect(201);
    const inventory = await report(live, '?subledger=inventory');
    expect(Object.keys(inventory).sort()).toEqual(['as_of_date', 'inventory', 'is_reconciled', 'object']);
    expect(inventory.inventory).toEqual({
      gl_balance: inventoryBefore.gl_balance + 125,
      // The stock valuation (the seeded stock) does not move with a manual entry.
      subledger_balance: inventoryBefore.subledger_balance,
      variance: inventoryBefore.variance + 125,
    });
    expect(inventory.is_reconciled).toBe(false);

    const future = new Date(`${today}T00:00:00Z`);
    future.setUTCDate(future.getUTCDate() + 40);
    const later = future.toISOString().slice(0, 10);
    const apBefore = (await report(live, '?subledger=ap')).ap;
    await bill(70, { bill_date: later }).expect(201);
    // Dated after the business day: neither side counts it yet.
    expect((await report(live, '?subledger=ap')).ap).toEqual(apBefore);
    const manual = await live
      .post('/v1/journal-entries')
      .send({
        entry_date: today,
        description: 'Accrual',
        lines: [
          { account_id: fx.accounts.expense, debit_amount: 12 },
          { account_id: fx.accounts.payables, credit_amount: 12 },
        ],
      })
      .expect(201);
    const ap = (await report(live, '?subledger=ap')).ap;
    expect(ap.variance).toBe(12);
    await live.post(`/v1/journal-entries/${manual.body.id}/reverse`).send({}).expect(200);
    expect((await report(live, '?subledger=ap')).ap.variance).toBe(0);
  });

  it('refuses as_of_date, unknown subledgers and unknown parameters; needs accounting:read', async () => {
    expectError(
      await live.get(`/v1/reports/subledger-reconciliation?as_of_date=${today}`),
      400,
      'unsupported_param',
      { param: 'as_of_date' },
    );
    expectError(
      await live.get('/v1/reports/subledger-reconciliation?subledger=ap&as_of_date=2020-01-01'),
      400,
      'unsupported_param',
    );
    expectError(
      await live.get('/v1/reports/subledger-reconciliation?subledger=gl'),
      400,
      'parameter_invalid',
      { param: 'subledger' },
    );
    expectError(await live.get('/v1/reports/subledger-reconciliation?period=1'), 400, 'parameter_unknown', {
      param: 'period',
    });
    expectError(
      await api(app, app.seed.entities.primary.keys.orders_only).get('/v1/reports/subledger-reconciliation'),
      403,
      'insufficient_scope',
    );
    await api(app, app.seed.entities.primary.keys.read_only)
      .get('/v1/reports/subledger-reconciliation')
      .expect(200);
    const other = await report(api(app, app.seed.entities.secondary.keys.live));
    expect(other).toMatchObject({
      is_reconciled: true,
      ar: { gl_balance: 0, subledger_balance: 0, variance: 0 },
      ap: { variance: 0 },
    });
  });

  it('keeps the AP variance at zero through random bills, payments and voids (property)', async () => {
    const testMode = api(app, app.seed.entities.primary.keys.test);
    const accounts = (await testMode.get('/v1/accounting/ledger-accounts?limit=100').expect(200)).body
      .data as { id: string; code: string }[];
    const expense = accounts.find((a) => a.code === '6000')!.id;
    const cents = fc.integer({ min: 1, max: 5_000_000 }).map((c) => c / 100);
    const op = fc.oneof(
      fc.record({ kind: fc.constant('bill' as const), amount: cents }),
      fc.record({
        kind: fc.constant('pay' as const),
        pick: fc.nat(),
        fraction: fc.double({ min: 0.01, max: 1, noNaN: true }),
      }),
      fc.record({ kind: fc.constant('void' as const), pick: fc.nat() }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 8 }), async (ops) => {
        const open: { id: string; due: number }[] = [];
        const unexpected: number[] = [];
        for (const o of ops) {
          if (o.kind === 'bill') {
            const b = (await bill(o.amount, { vendor_name: 'Random vendor' }, testMode, expense).expect(201))
              .body;
            open.push({ id: b.id, due: b.amount_due });
          } else if (open.length > 0) {
            const target = open[o.pick % open.length];
            if (o.kind === 'pay') {
              const amount = Math.max(0.01, Math.floor(target.due * o.fraction * 100) / 100);
              const paid = (
                await testMode.post(`/v1/vendor-bills/${target.id}/payments`).send({ amount }).expect(201)
              ).body;
              target.due = paid.amount_due;
              if (paid.status === 'paid') open.splice(open.indexOf(target), 1);
            } else {
              const res = await testMode.post(`/v1/vendor-bills/${target.id}/void`);
              // Voided, or refused because a payment was made (409).
              if (![200, 409].includes(res.status)) unexpected.push(res.status);
              if (res.status === 200) open.splice(open.indexOf(target), 1);
            }
          }
        }
        expect(unexpected).toEqual([]);
        const ap = (await report(testMode, '?subledger=ap')).ap;
        expect(ap.variance).toBe(0);
        expect(ap.gl_balance).toBe(ap.subledger_balance);
      }),
      { numRuns: 12 },
    );
    // The open amounts of the test mode's bills, summed in ten-thousandths (4-decimal money).
    const bills = await listAll<Listed & { amount: number; amount_paid: number; status: string }>(
      testMode,
      '/v1/vendor-bills',
    );
    const due = bills
      .filter((b) => b.status !== 'voided')
      .reduce((sum, b) => sum + Math.round(b.amount * 10_000) - Math.round(b.amount_paid * 10_000), 0);
    expect((await report(testMode, '?subledger=ap')).ap.subledger_balance).toBe(due / 10_000);
    expect(await trialBalance(app, app.seed.entities.primary.id, false)).toBe('0.0000');
  });
});
