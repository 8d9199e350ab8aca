import { expectEvent } from '../support/expect-event';
import { randomUUID } from 'node:crypto';
import { customerCredits } from '../support/database';
import { allJournalEntries } from '../support/journal';
import { api, expectError } from '../support/http';
import { outbox } from '../support/outbox';
import { startTestApp, TestApp } from '../support/test-app';
import { ledgerFixtures, LedgerFixtures, trialBalance } from './support/accounting-fixtures';
import { issuedInvoice, newCustomer } from './support/receivables';

describe('bank transactions and matching deposits to invoices', () => {
  let app: TestApp;
  let live: ReturnType<typeof api>;
  let fx: LedgerFixtures;
  let entityId: string;
  let roleAccounts: Record<string, string>;
  let today: string;

  beforeAll(async () => {
    app = await startTestApp();
    live = api(app, app.seed.entities.primary.keys.live);
    fx = ledgerFixtures(app);
    entityId = app.seed.entities.primary.id;
    const list = (await live.get('/v1/accounting/ledger-accounts?limit=100').expect(200)).body.data as {
      id: string;
      control_role: string | null;
    }[];
    roleAccounts = Object.fromEntries(list.filter((a) => a.control_role).map((a) => [a.control_role, a.id]));
    today = (await live.get('/v1/accounting/settings').expect(200)).body.current_business_day;
  });
  afterAll(() => app.close());

  // Invoices are real sales documents, issued through the order routes; what the deposit did to
  // them is read back through the same routes.
  const invoice = (accountId: string, amount: number, options: { currency?: string } = {}) =>
    issuedInvoice(live, accountId, amount, options);
  const customer = () => newCustomer(live);
  const amountDue = async (id: string) => {
    const order = (await live.get(`/v1/orders/${id}`).expect(200)).body;
    return { amount_due: order.amount_due, payment_status: order.payment_status };
  };
  const paymentsOf = async (accountId: string) =>
    (await live.get(`/v1/payments?account_id=${accountId}&limit=100`).expect(200)).body.data as {
      id: string;
      account_id: string;
      method: string;
      amount: number;
      applications: { order_id: string; amount: number }[];
    }[];
  const creditsOf = (accountId: string) => customerCredits(app, accountId);

  const deposit = async (amount: number, extra: Record<string, unknown> = {}) =>
    (
      await live
        .post('/v1/accounting/bank-transactions')
        .send({
          bank_account_id: fx.accounts.cash,
          type: 'deposit',
          amount,
          transaction_date: today,
          reference: `DEP-${randomUUID().slice(0, 8)}`,
          ...extra,
        })
        .expect(201)
    ).body as { id: string; amount: number; status: string };

  it('imports one deposit, answers it, and retrieves it', async () => {
    const body = await deposit(1250.5, { description: 'ACH batch' });
    expect(body).toMatchObject({
      object: 'bank_transaction',
      bank_account_id: fx.accounts.cash,
      type: 'deposit',
      amount: 1250.5,
      currency: 'USD',
      transaction_date: today,
      description: 'ACH batch',
      status: 'unmatched',
      matched_at: null,
      match: null,
      payment_id: null,
      journal_entry_id: null,
      livemode: true,
    });
    const got = await live.get(`/v1/accounting/bank-transactions/${body.id}`).expect(200);
    expect(got.body).toEqual(body);
    expect(got.headers.etag).toMatch(/^W\//);
    const expanded = await live
      .get(`/v1/accounting/bank-transactions/${body.id}?expand[]=bank_account`)
      .expect(200);
    expect(expanded.body.bank_account).toMatchObject({
      id: fx.accounts.cash,
      object: 'ledger_account',
      is_bank: true,
    });
    // Importing posts nothing: no entry has the transaction as its source.
    expect((await allJournalEntries(live)).filter((e) => e.source_id === body.id)).toEqual([]);
  });

  it('imports a batch all or none, naming the failing item', async () => {
    const bankAccount = (
      await live
        .post('/v1/accounting/ledger-accounts')
        .send({ code: '1010', name: 'Operating bank', type: 'asset', is_bank: true })
        .expect(201)
    ).body;
    expect(bankAccount.is_bank).toBe(true);
    const batch = await live
      .post('/v1/accounting/bank-transactions')
      .send({
        transactions: [
          { bank_account_id: bankAccount.id, type: 'deposit', amount: 10, transaction_date: '2026-01-05' },
          {
            bank_account_id: bankAccount.id,
            type: 'withdrawal',
            amount: 4.25,
            transaction_date: '2026-01-20',
            description: 'Bank fee',
          },
        ],
      })
      .expect(201);
    expect(batch.body.object).toBe('list');
    expect(batch.body.data.map((t: { type: string; amount: number }) => [t.type, t.amount])).toEqual([
      ['deposit', 10],
      ['withdrawal', 4.25],
    ]);

    const transactionsOf = async (accountId: string) =>
      (await live.get(`/v1/accounting/bank-transactions?bank_account_id=${accountId}&limit=100`).expect(200))
        .body.data.length as number;
    const before = await transactionsOf(bankAccount.id);
    const bad = await live.post('/v1/accounting/bank-transactions').send({
      transactions: [
        { bank_account_id: bankAccount.id, type: 'deposit', amount: 10, transaction_date: '2026-01-05' },
        { bank_account_id: fx.accounts.revenue, type: 'deposit', amount: 10, transaction_date: '2026-01-05' },
      ],
    });
    expectError(bad, 400, 'parameter_invalid', { param: 'transactions[1].bank_account_id' });
    const invalid = await live.post('/v1/accounting/bank-transactions').send({
      transactions: [
        { bank_account_id: bankAccount.id, type: 'deposit', amount: -1, transaction_date: '2026-01-05' },
      ],
    });
    expectError(invalid, 400, 'parameter_invalid', { param: 'transactions[0].amount' });
    expectError(
      await live.post('/v1/accounting/bank-transactions').send({ transactions: [] }),
      400,
      'parameter_invalid',
      { param: 'transactions' },
    );
    expect(await transactionsOf(bankAccount.id)).toBe(before);

    const list = await live
      .get(`/v1/accounting/bank-transactions?bank_account_id=${bankAccount.id}&type=withdrawal`)
      .expect(200);
    expect(list.body.data.map((t: { description: string }) => t.description)).toEqual(['Bank fee']);
    const range = await live
      .get(
        `/v1/accounting/bank-transactions?bank_account_id=${bankAccount.id}&date_from=2026-01-01&date_to=2026-01-10`,
      )
      .expect(200);
    expect(range.body.data.map((t: { amount: number }) => t.amount)).toEqual([10]);
    const empty = await live
      .get(`/v1/accounting/bank-transactions?bank_account_id=${bankAccount.id}&date_from=2026-01-21`)
      .expect(200);
    expect(empty.body.data).toEqual([]);
  });

  it('validates single imports and list filters', async () => {
    const base = { bank_account_id: fx.accounts.cash, type: 'deposit', amount: 5, transaction_date: today };
    expectError(
      await live.post('/v1/accounting/bank-transactions').send({ ...base, amount: 0 }),
      400,
      'parameter_invalid',
      { param: 'amount' },
    );
    expectError(
      await live.post('/v1/accounting/bank-transactions').send({ ...base, amount: 1.00001 }),
      400,
      'parameter_invalid',
      { param: 'amount' },
    );
    expectError(
      await live.post('/v1/accounting/bank-transactions').send({ ...base, type: 'transfer' }),
      400,
      'parameter_invalid',
      { param: 'type' },
    );
    expectError(
      await live.post('/v1/accounting/bank-transactions').send({ ...base, transaction_date: '2026-02-30' }),
      400,
      'parameter_invalid',
      { param: 'transaction_date' },
    );
    expectError(
      await live.post('/v1/accounting/bank-transactions').send({ ...base, extra: 1 }),
      400,
      'parameter_unknown',
      { param: 'extra' },
    );
    const missing = await live
      .post('/v1/accounting/bank-transactions')
      .send({ type: 'deposit', amount: 5, transaction_date: today });
    expect(missing.status).toBe(400);
    expect(missing.body.param).toBe('bank_account_id');
    expectError(
      await live
        .post('/v1/accounting/bank-transactions')
        .send({ ...base, bank_account_id: fx.accounts.expense }),
      400,
      'parameter_invalid',
      { param: 'bank_account_id' },
    );
    expectError(
      await live.post('/v1/accounting/bank-transactions').send({ ...base, bank_account_id: randomUUID() }),
      400,
      'parameter_invalid',
      { param: 'bank_account_id' },
    );
    expectError(await live.get('/v1/accounting/bank-transactions?status=pending'), 400, 'parameter_invalid', {
      param: 'status',
    });
    expectError(await live.get('/v1/accounting/bank-transactions?type=credit'), 400, 'parameter_invalid', {
      param: 'type',
    });
    expectError(
      await live.get('/v1/accounting/bank-transactions?date_from=yesterday'),
      400,
      'parameter_invalid',
      { param: 'date_from' },
    );
    expectError(await live.get('/v1/accounting/bank-transactions?colour=red'), 400, 'parameter_unknown', {
      param: 'colour',
    });
    const bank = await live
      .patch(`/v1/accounting/ledger-accounts/${fx.accounts.revenue}`)
      .send({ is_bank: true });
    expectError(bank, 400, 'parameter_invalid', { param: 'is_bank' });
  });

  it('enforces scopes, entity and mode isolation', async () => {
    const body = await deposit(20);
    const readOnly = api(app, app.seed.entities.primary.keys.read_only);
    await readOnly.get(`/v1/accounting/bank-transactions/${body.id}`).expect(200);
    await readOnly.get('/v1/accounting/bank-transactions').expect(200);
    expectError(
      await readOnly
        .post('/v1/accounting/bank-transactions')
        .send({ bank_account_id: fx.accounts.cash, type: 'deposit', amount: 1, transaction_date: today }),
      403,
      'insufficient_scope',
    );
    expectError(
      await readOnly.post(`/v1/accounting/bank-transactions/${body.id}/match-deposit-to-invoices`).send({}),
      403,
      'insufficient_scope',
    );
    const other = api(app, app.seed.entities.secondary.keys.live);
    expectError(await other.get(`/v1/accounting/bank-transactions/${body.id}`), 404, 'not_found');
    const payer = await customer();
    const inv = await invoice(payer, 20);
    expectError(
      await other
        .post(`/v1/accounting/bank-transactions/${body.id}/match-deposit-to-invoices`)
        .send({ account_id: payer, applications: [{ invoice_id: inv, amount: 20 }] }),
      404,
      'not_found',
    );
    const testMode = api(app, app.seed.entities.primary.keys.test);
    expectError(await testMode.get(`/v1/accounting/bank-transactions/${body.id}`), 404, 'not_found');
    expect((await testMode.get('/v1/accounting/bank-transactions').expect(200)).body.data).toEqual([]);
    expectError(await live.get(`/v1/accounting/bank-transactions/${randomUUID()}`), 404, 'not_found');
  });

  it('matches a deposit exactly to two invoices: payment, BANK_DEPOSIT entry, matched status, event', async () => {
    const payer = await customer();
    const [a, b] = [await invoice(payer, 400), await invoice(payer, 350.25)];
    const dep = await deposit(750.25);
    const res = await live
      .post(`/v1/accounting/bank-transactions/${dep.id}/match-deposit-to-invoices`)
      .send({
        account_id: payer,
        applications: [
          { invoice_id: a, amount: 400 },
          { invoice_id: b, amount: 350.25 },
        ],
        payment_method: 'ach',
        reconciliation_id: null,
      })
      .expect(200);
    expect(res.body).toMatchObject({
      id: dep.id,
      object: 'bank_transaction',
      status: 'matched',
      match: {
        account_id: payer,
        applied_amount: 750.25,
        unapplied_amount: 0,
        route_unapplied: null,
        reconciliation_id: null,
        payment_method: 'ach',
        applications: [
          { invoice_id: a, amount: 400 },
          { invoice_id: b, amount: 350.25 },
        ],
      },
    });
    expect(res.body.matched_at).toEqual(expect.any(String));
    expect(res.body.match.payment_id).toBe(res.body.payment_id);
    expect(await amountDue(a)).toEqual({ amount_due: 0, payment_status: 'paid' });
    expect(await amountDue(b)).toEqual({ amount_due: 0, payment_status: 'paid' });
    // One payment of the customer, applied to both invoices.
    expect(await paymentsOf(payer)).toEqual([
      expect.objectContaining({
        id: res.body.payment_id,
        account_id: payer,
        method: 'bank_deposit',
        metadata: { deposit_payment_method: 'ach' },
        amount: 750.25,
        applications: [
          { order_id: a, amount: 400 },
          { order_id: b, amount: 350.25 },
        ],
      }),
    ]);

    const entry = (await live.get(`/v1/journal-entries/${res.body.journal_entry_id}`).expect(200)).body;
    expect(entry).toMatchObject({
      source_type: 'BANK_DEPOSIT',
      source_id: dep.id,
      status: 'posted',
      total_debit: 750.25,
      entry_date: today,
    });
    expect(
      entry.lines.map((l: { account_id: string; debit_amount: number; credit_amount: number }) => [
        l.account_id,
        l.debit_amount,
        l.credit_amount,
      ]),
    ).toEqual([
      [fx.accounts.cash, 750.25, 0],
      [fx.accounts.receivables, 0, 750.25],
    ]);
    const events = await outbox(app).eventsOf(dep.id);
    expect(events.map((e) => e.type)).toEqual(['accounting.bank_transaction.matched']);
    await expectEvent(app, 'accounting.bank_transaction.matched', {
      id: dep.id,
      status: 'matched',
      amount: 750.25,
    });
    expect(
      (await live.get(`/v1/accounting/bank-transactions?status=matched`).expect(200)).body.data.map(
        (t: { id: string }) => t.id,
      ),
    ).toContain(dep.id);
    expect(
      (await live.get(`/v1/accounting/bank-transactions?status=unmatched`).expect(200)).body.data.map(
        (t: { id: string }) => t.id,
      ),
    ).not.toContain(dep.id);

    const again = await live
      .post(`/v1/accounting/bank-transactions/${dep.id}/match-deposit-to-invoices`)
      .send({ account_id: payer, applications: [{ invoice_id: a, amount: 1 }] });
    expectError(again, 409, 'invalid_state');
    expect(again.body.hint).toMatch(/matched/);
  });

  it('routes a remainder to payer credit or to suspense, and refuses it unrouted', async () => {
    const payer = await customer();
    const inv = await invoice(payer, 100);
    const dep = await deposit(130);
    for (const route of [undefined, null]) {
      const res = await live
        .post(`/v1/accounting/bank-transactions/${dep.id}/match-deposit-to-invoices`)
        .send({
          account_id: payer,
          applications: [{ invoice_id: inv, amount: 100 }],
          ...(route === undefined ? {} : { route_unapplied: route }),
        });
      expectError(res, 422, 'unapplied_remainder', { param: 'route_unapplied' });
      expect(res.body.unapplied_amount).toBe(30);
    }
    expect(await amountDue(inv)).toEqual({ amount_due: 100, payment_status: 'unpaid' });
    expectError(
      await live.post(`/v1/accounting/bank-transactions/${dep.id}/match-deposit-to-invoices`).send({
        account_id: payer,
        applications: [{ invoice_id: inv, amount: 100 }],
        route_unapplied: 'refund',
      }),
      400,
      'parameter_invalid',
      { param: 'route_unapplied' },
    );
    const credited = await live
      .post(`/v1/accounting/bank-transactions/${dep.id}/match-deposit-to-invoices`)
      .send({
        account_id: payer,
        applications: [{ invoice_id: inv, amount: 60 }],
        route_unapplied: 'customer_credit',
      })
      .expect(200);
    expect(credited.body.match).toMatchObject({
      applied_amount: 60,
      unapplied_amount: 70,
      route_unapplied: 'customer_credit',
    });
    expect(await amountDue(inv)).toEqual({ amount_due: 40, payment_status: 'partially_paid' });
    expect(await creditsOf(payer)).toEqual([
      { amount: '70.0000', reference: expect.stringMatching(/^DEP-/) },
    ]);
    // The remainder is the account's credit balance, with its transaction.
    expect((await live.get(`/v1/accounts/${payer}`).expect(200)).body.credit_balance).toBe(70);
    expect((await live.get(`/v1/accounts/${payer}/credit-transactions`).expect(200)).body.data).toMatchObject(
      [
        {
          type: 'deposit_remainder',
          amount: 70,
          ending_balance: 70,
          description: expect.stringMatching(/^DEP-/),
        },
      ],
    );
    const entry = (await live.get(`/v1/journal-entries/${credited.body.journal_entry_id}`).expect(200)).body;
    expect(
      entry.lines.map((l: { account_id: string; debit_amount: number; credit_amount: number }) => [
        l.account_id,
        l.debit_amount,
        l.credit_amount,
      ]),
    ).toEqual([
      [fx.accounts.cash, 130, 0],
      [fx.accounts.receivables, 0, 60],
      [roleAccounts.customer_credit, 0, 70],
    ]);

    const dep2 = await deposit(50);
    const suspense = await live
      .post(`/v1/accounting/bank-transactions/${dep2.id}/match-deposit-to-invoices`)
      .send({
        account_id: payer,
        applications: [{ invoice_id: inv, amount: 40 }],
        route_unapplied: 'suspense',
      })
      .expect(200);
    expect(suspense.body.match).toMatchObject({
      applied_amount: 40,
      unapplied_amount: 10,
      route_unapplied: 'suspense',
    });
    const lines = (await live.get(`/v1/journal-entries/${suspense.body.journal_entry_id}`).expect(200)).body
      .lines;
    expect(lines[2]).toMatchObject({ account_id: roleAccounts.suspense, credit_amount: 10 });
    expect(await creditsOf(payer)).toHaveLength(1);
    expect(await amountDue(inv)).toEqual({ amount_due: 0, payment_status: 'paid' });
  });

  it("refuses applications over the deposit, over an amount due, on invoices that are not open or not the account's", async () => {
    const payer = await customer();
    const [a, b] = [await invoice(payer, 100), await invoice(payer, 200)];
    // Open invoices the deposit must not reach: another customer's, and one of the test mode.
    const foreign = await invoice(await customer(), 50);
    const testMode = api(app, app.seed.entities.primary.keys.test);
    const testModeInvoice = await issuedInvoice(testMode, await newCustomer(testMode), 50);
    const dep = await deposit(250);
    const match = (body: Record<string, unknown>) =>
      live
        .post(`/v1/accounting/bank-transactions/${dep.id}/match-deposit-to-invoices`)
        .send({ account_id: payer, ...body });

    expectError(
      await match({
        applications: [
          { invoice_id: a, amount: 100 },
          { invoice_id: b, amount: 200 },
        ],
      }),
      422,
      'amount_exceeds_limit',
      { param: 'applications' },
    );
    const overDue = await match({
      applications: [
        { invoice_id: a, amount: 50 },
        { invoice_id: b, amount: 200.01 },
      ],
    });
    expectError(overDue, 422, 'amount_exceeds_limit', { param: 'applications[1].amount' });
    expect(overDue.body.amount_due).toBe(200);
    expectError(
      await match({
        applications: [
          { invoice_id: a, amount: 10 },
          { invoice_id: foreign, amount: 10 },
        ],
        route_unapplied: 'suspense',
      }),
      422,
      'invoice_not_open',
      {
        param: 'applications[1].invoice_id',
      },
    );
    expectError(
      await match({ applications: [{ invoice_id: randomUUID(), amount: 10 }], route_unapplied: 'suspense' }),
      422,
      'invoice_not_open',
      { param: 'applications[0].invoice_id' },
    );
    expectError(
      await match({
        applications: [{ invoice_id: testModeInvoice, amount: 10 }],
        route_unapplied: 'suspense',
      }),
      422,
      'invoice_not_open',
      { param: 'applications[0].invoice_id' },
    );
    expectError(
      await match({
        applications: [
          { invoice_id: a, amount: 10 },
          { invoice_id: a, amount: 10 },
        ],
        route_unapplied: 'suspense',
      }),
      400,
      'parameter_invalid',
      {
        param: 'applications[1].invoice_id',
      },
    );
    // An invoice in another currency than the deposit's (an order is in its account's currency).
    const euroCustomer = (
      await live.post('/v1/accounts').send({ name: 'Euro customer', currency: 'EUR' }).expect(201)
    ).body.id;
    const euro = await invoice(euroCustomer, 10);
    expectError(
      await match({
        account_id: euroCustomer,
        applications: [{ invoice_id: euro, amount: 10 }],
        route_unapplied: 'suspense',
      }),
      400,
      'parameter_invalid',
      { param: 'applications[0].invoice_id' },
    );
    // Paid in full by the customer outside the deposit.
    await live.post(`/v1/orders/${b}/payments`).send({ method: 'cash', amount: 200 }).expect(201);
    expectError(
      await match({ applications: [{ invoice_id: b, amount: 10 }], route_unapplied: 'suspense' }),
      422,
      'invoice_not_open',
      { param: 'applications[0].invoice_id' },
    );

    expectError(await match({ applications: [] }), 400, 'parameter_invalid', { param: 'applications' });
    expectError(await match({ applications: [{ invoice_id: a, amount: 0 }] }), 400, 'parameter_invalid', {
      param: 'applications[0].amount',
    });
    expectError(
      await match({ applications: [{ invoice_id: 'nope', amount: 1 }] }),
      400,
      'parameter_invalid',
      { param: 'applications[0].invoice_id' },
    );
    expectError(
      await match({ applications: [{ invoice_id: a, amount: 1, note: 'x' }] }),
      400,
      'parameter_unknown',
      { param: 'applications[0].note' },
    );
    const noAccount = await live
      .post(`/v1/accounting/bank-transactions/${dep.id}/match-deposit-to-invoices`)
      .send({ applications: [{ invoice_id: a, amount: 1 }] });
    expect(noAccount.status).toBe(400);
    expect(noAccount.body.param).toBe('account_id');
    const noApplications = await match({});
    expect(noApplications.status).toBe(400);
    expect(noApplications.body.param).toBe('applications');
    expectError(
      await match({ applications: [{ invoice_id: a, amount: 1 }], reconciliation_id: 'r1' }),
      400,
      'parameter_invalid',
      { param: 'reconciliation_id' },
    );

    expect(await amountDue(a)).toEqual({ amount_due: 100, payment_status: 'unpaid' });
    expect((await live.get(`/v1/accounting/bank-transactions/${dep.id}`).expect(200)).body.status).toBe(
      'unmatched',
    );
  });

  it('refuses to match a withdrawal, and rolls the payment back when the posting fails', async () => {
    const payer = await customer();
    const inv = await invoice(payer, 80);
    const withdrawal = (
      await live
        .post('/v1/accounting/bank-transactions')
        .send({ bank_account_id: fx.accounts.cash, type: 'withdrawal', amount: 80, transaction_date: today })
        .expect(201)
    ).body;
    const refused = await live
      .post(`/v1/accounting/bank-transactions/${withdrawal.id}/match-deposit-to-invoices`)
      .send({ account_id: payer, applications: [{ invoice_id: inv, amount: 80 }] });
    expectError(refused, 409, 'invalid_state');
    expect(refused.body.hint).toMatch(/withdrawal/);

    const old = await deposit(80, { transaction_date: fx.closedPeriod.start_date });
    const closed = await live
      .post(`/v1/accounting/bank-transactions/${old.id}/match-deposit-to-invoices`)
      .send({ account_id: payer, applications: [{ invoice_id: inv, amount: 80 }] });
    expectError(closed, 422, 'period_closed');
    expect(await amountDue(inv)).toEqual({ amount_due: 80, payment_status: 'unpaid' });
    expect(await paymentsOf(payer)).toHaveLength(0);
    expect((await live.get(`/v1/accounting/bank-transactions/${old.id}`).expect(200)).body.status).toBe(
      'unmatched',
    );
  });

  it('matches a deposit once under concurrent requests', async () => {
    const payer = await customer();
    const inv = await invoice(payer, 60);
    const dep = await deposit(60);
    const results = await Promise.all(
      Array.from({ length: 5 }, () =>
        live
          .post(`/v1/accounting/bank-transactions/${dep.id}/match-deposit-to-invoices`)
          .send({ account_id: payer, applications: [{ invoice_id: inv, amount: 60 }] }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409]);
    expect(
      (
        (await live.get('/v1/journal-entries?source_type=BANK_DEPOSIT&limit=100').expect(200)).body.data as {
          source_id: string;
        }[]
      ).filter((e) => e.source_id === dep.id).length,
    ).toBe(1);
    expect(await paymentsOf(payer)).toHaveLength(1);
    expect(await amountDue(inv)).toEqual({ amount_due: 0, payment_status: 'paid' });
  });

  it('seeds a bank_deposit fixture from open invoices of sales, which matches exactly', async () => {
    const fixture = app.seed.fixtures.bank_deposit as {
      id: string;
      account_id: string;
      amount: number;
      invoices: { id: string; amount_due: number }[];
    };
    // The seed's two issued invoices of its customer account (sales), read back through the orders routes.
    expect(fixture.account_id).toBe(app.seed.fixtures.account_id);
    expect(fixture.invoices).toHaveLength(2);
    const invoices = await Promise.all(
      fixture.invoices.map(async (i) => (await live.get(`/v1/orders/${i.id}`).expect(200)).body),
    );
    expect(invoices.map((o) => [o.document_type, o.account_id, o.payment_status, o.amount_due])).toEqual(
      fixture.invoices.map((i) => ['invoice', fixture.account_id, 'unpaid', i.amount_due]),
    );
    const cents = fixture.invoices.reduce((sum, i) => sum + Math.round(i.amount_due * 100), 0);
    expect(Math.round(fixture.amount * 100)).toBe(cents);
    const got = (await live.get(`/v1/accounting/bank-transactions/${fixture.id}`).expect(200)).body;
    expect(got).toMatchObject({
      type: 'deposit',
      status: 'unmatched',
      amount: fixture.amount,
      bank_account_id: fx.accounts.cash,
    });
    await live
      .post(`/v1/accounting/bank-transactions/${fixture.id}/match-deposit-to-invoices`)
      .send({
        account_id: fixture.account_id,
        applications: fixture.invoices.map((i) => ({ invoice_id: i.id, amount: i.amount_due })),
      })
      .expect(200);
    for (const { id } of fixture.invoices)
      expect(await amountDue(id)).toEqual({ amount_due: 0, payment_status: 'paid' });
    expect(await trialBalance(app, entityId)).toBe('0.0000');
  });
});
