import { api, expectError } from '../support/http';
import { expectEvent } from '../support/expect-event';
import { outbox } from '../support/outbox';
import { startTestApp, TestApp } from '../support/test-app';
import { setEntityTimezone } from '../support/out-of-band-writes';
import { ledgerFixtures, LedgerFixtures } from './support/accounting-fixtures';

describe('accounting: settings, chart of accounts, fiscal years and periods', () => {
  let app: TestApp;
  let live: ReturnType<typeof api>;
  let fx: LedgerFixtures;

  beforeAll(async () => {
    app = await startTestApp();
    live = api(app, app.seed.entities.primary.keys.live);
    fx = ledgerFixtures(app);
  });
  afterAll(() => app.close());

  it('exposes and updates the accounting settings with the business day of the entity time zone', async () => {
    const got = await live.get('/v1/accounting/settings').expect(200);
    expect(got.body).toMatchObject({
      object: 'accounting_settings',
      entity_id: app.seed.entities.primary.id,
      livemode: true,
      timezone: 'UTC',
      approval_threshold: null,
      entry_number_prefix: 'QA1-JE',
    });
    expect(got.body.current_business_day).toBe(new Date().toISOString().slice(0, 10));
    await setEntityTimezone(app, app.seed.entities.primary.id, 'Pacific/Kiritimati');
    const kiritimati = new Intl.DateTimeFormat('en-CA', { timeZone: 'Pacific/Kiritimati' }).format(
      new Date(),
    );
    expect((await live.get('/v1/accounting/settings').expect(200)).body).toMatchObject({
      timezone: 'Pacific/Kiritimati',
      current_business_day: kiritimati,
    });
    await setEntityTimezone(app, app.seed.entities.primary.id, 'UTC');

    const patched = await live
      .patch('/v1/accounting/settings')
      .send({ approval_threshold: 5000.5, entry_number_prefix: 'QA1-GL' })
      .expect(200);
    expect(patched.body).toMatchObject({ approval_threshold: 5000.5, entry_number_prefix: 'QA1-GL' });
    expectError(
      await live.patch('/v1/accounting/settings').send({ approval_threshold: -1 }),
      400,
      'parameter_invalid',
      { param: 'approval_threshold' },
    );
    expectError(
      await live.patch('/v1/accounting/settings').send({ entry_number_prefix: 'has space' }),
      400,
      'parameter_invalid',
      {
        param: 'entry_number_prefix',
      },
    );
    await live
      .patch('/v1/accounting/settings')
      .send({ approval_threshold: null, entry_number_prefix: 'QA1-JE' })
      .expect(200);
    const test = await api(app, app.seed.entities.primary.keys.test)
      .get('/v1/accounting/settings')
      .expect(200);
    expect(test.body.livemode).toBe(false);
  });

  it('creates ledger accounts with derived normal balances, unique codes and control roles', async () => {
    const expense = await live
      .post('/v1/accounting/ledger-accounts')
      .send({ code: '6500', name: 'Rent', type: 'expense' })
      .expect(201);
    expect(expense.body).toMatchObject({
      object: 'ledger_account',
      code: '6500',
      type: 'expense',
      normal_balance: 'debit',
      postable: true,
      control_role: null,
    });
    const income = await live
      .post('/v1/accounting/ledger-accounts')
      .send({ code: '4500', name: 'Other income', type: 'revenue' })
      .expect(201);
    expect(income.body.normal_balance).toBe('credit');
    const contra = await live
      .post('/v1/accounting/ledger-accounts')
      .send({ code: '1590', name: 'Allowance', type: 'asset', normal_balance: 'credit', parent_id: null })
      .expect(201);
    expect(contra.body.normal_balance).toBe('credit');

    expectError(
      await live.post('/v1/accounting/ledger-accounts').send({ code: '6500', name: 'Dup', type: 'expense' }),
      409,
      'resource_conflict',
      {
        param: 'code',
      },
    );
    expectError(
      await live
        .post('/v1/accounting/ledger-accounts')
        .send({ code: '1001', name: 'Cash 2', type: 'asset', control_role: 'cash' }),
      409,
      'resource_conflict',
      { param: 'control_role' },
    );
    // The same code in test mode is another book.
    await api(app, app.seed.entities.primary.keys.test)
      .post('/v1/accounting/ledger-accounts')
      .send({ code: '6500', name: 'Rent', type: 'expense' })
      .expect(201);

    expectError(
      await live.post('/v1/accounting/ledger-accounts').send({ code: 'x', name: 'x', type: 'cash' }),
      400,
      'parameter_invalid',
      { param: 'type' },
    );
    expectError(
      await live.post('/v1/accounting/ledger-accounts').send({ name: 'x', type: 'asset' }),
      400,
      'parameter_missing',
      { param: 'code' },
    );
    expectError(
      await live
        .post('/v1/accounting/ledger-accounts')
        .send({ code: 'y', name: 'y', type: 'asset', control_role: 'bank' }),
      400,
      'parameter_invalid',
      { param: 'control_role' },
    );
    expectError(
      await live
        .post('/v1/accounting/ledger-accounts')
        .send({ code: 'z', name: 'z', type: 'asset', parent_id: '0190a8a0-0000-7000-8000-000000000000' }),
      400,
      'parameter_invalid',
      { param: 'parent_id' },
    );

    const updated = await live
      .patch(`/v1/accounting/ledger-accounts/${expense.body.id}`)
      .send({ name: 'Office rent', postable: false })
      .expect(200);
    expect(updated.body).toMatchObject({ name: 'Office rent', postable: false });
    const retrieved = await live.get(`/v1/accounting/ledger-accounts/${expense.body.id}`).expect(200);
    expect(retrieved.body).toEqual(updated.body);
    const list = await live.get('/v1/accounting/ledger-accounts?control_role=cash').expect(200);
    expect(list.body.data.map((a: { id: string }) => a.id)).toEqual([fx.accounts.cash]);
    const expenses = await live.get('/v1/accounting/ledger-accounts?type=expense&limit=100').expect(200);
    expect(expenses.body.data.every((a: { type: string }) => a.type === 'expense')).toBe(true);

    const events = await outbox(app).eventsOf(expense.body.id);
    expect(events.map((e) => e.type)).toEqual([
      'accounting.ledger_account.created',
      'accounting.ledger_account.updated',
    ]);
    expect(events[1].data.previous_attributes).toEqual({ name: 'Rent', postable: true });
    await expectEvent(app, 'accounting.ledger_account.created', {
      id: expense.body.id,
      code: '6500',
      name: 'Rent',
      type: 'expense',
      postable: true,
    });
    await expectEvent(
      app,
      'accounting.ledger_account.updated',
      { id: expense.body.id, name: 'Office rent', postable: false },
      { previous: { name: 'Rent', postable: true } },
    );
  });

  it('creates fiscal years with monthly periods, refuses overlaps and closes / reopens periods', async () => {
    const year = await live
      .post('/v1/accounting/fiscal-years')
      .send({ name: 'FY2040', start_date: '2040-01-01', end_date: '2040-12-31' })
      .expect(201);
    expect(year.body).toMatchObject({ object: 'fiscal_year', status: 'open' });
    const periods = await live
      .get(`/v1/accounting/periods?fiscal_year_id=${year.body.id}&limit=100`)
      .expect(200);
    expect(periods.body.data).toHaveLength(12);
    expect(periods.body.data.map((p: { start_date: string }) => p.start_date).sort()[1]).toBe('2040-02-01');
    expect(
      periods.body.data.find((p: { start_date: string }) => p.start_date === '2040-02-01').end_date,
    ).toBe('2040-02-29');

    expectError(
      await live
        .post('/v1/accounting/periods')
        .send({ name: 'overlap', start_date: '2040-03-15', end_date: '2040-04-15' }),
      409,
      'resource_conflict',
    );
    expectError(
      await live
        .post('/v1/accounting/periods')
        .send({ name: 'bad', start_date: '2041-02-30', end_date: '2041-03-01' }),
      400,
      'parameter_invalid',
      {
        param: 'start_date',
      },
    );
    expectError(
      await live
        .post('/v1/accounting/periods')
        .send({ name: 'bad', start_date: '2041-03-01', end_date: '2041-02-01' }),
      400,
      'parameter_invalid',
      {
        param: 'end_date',
      },
    );
    const single = await live
      .post('/v1/accounting/periods')
      .send({ name: '2041-01', start_date: '2041-01-01', end_date: '2041-01-31' })
      .expect(201);
    expect(single.body).toMatchObject({ object: 'accounting_period', status: 'open', fiscal_year_id: null });

    // A draft in the period blocks closing it.
    const draft = await live
      .post('/v1/journal-entries')
      .send({
        entry_date: '2041-01-10',
        status: 'draft',
        lines: [
          { account_id: fx.accounts.cash, debit_amount: 1 },
          { account_id: fx.accounts.revenue, credit_amount: 1 },
        ],
      })
      .expect(201);
    const refused = await live.post(`/v1/accounting/periods/${single.body.id}/close`);
    expectError(refused, 409, 'invalid_state', { type: 'conflict' });
    expect(refused.body.hint).toMatch(/draft/);
    await live.delete(`/v1/journal-entries/${draft.body.id}`).expect(200);

    const closed = await live.post(`/v1/accounting/periods/${single.body.id}/close`).expect(200);
    expect(closed.body.status).toBe('closed');
    expect(closed.body.closed_at).toEqual(expect.any(String));
    expectError(await live.post(`/v1/accounting/periods/${single.body.id}/close`), 409, 'invalid_state');
    const reopened = await live.post(`/v1/accounting/periods/${single.body.id}/reopen`).expect(200);
    expect(reopened.body).toMatchObject({ status: 'open', closed_at: null });
    expectError(await live.post(`/v1/accounting/periods/${single.body.id}/reopen`), 409, 'invalid_state');

    const closedYear = await live.post(`/v1/accounting/fiscal-years/${year.body.id}/close`).expect(200);
    expect(closedYear.body.status).toBe('closed');
    const after = await live
      .get(`/v1/accounting/periods?fiscal_year_id=${year.body.id}&status=open`)
      .expect(200);
    expect(after.body.data).toHaveLength(0);
    const one = periods.body.data[0];
    expectError(await live.post(`/v1/accounting/periods/${one.id}/reopen`), 409, 'invalid_state');
    await live.post(`/v1/accounting/fiscal-years/${year.body.id}/reopen`).expect(200);
    await live.post(`/v1/accounting/periods/${one.id}/reopen`).expect(200);
    expect((await live.get(`/v1/accounting/fiscal-years/${year.body.id}`).expect(200)).body.status).toBe(
      'open',
    );
    expect(
      (await live.get('/v1/accounting/fiscal-years').expect(200)).body.data.length,
    ).toBeGreaterThanOrEqual(4);

    const events = await outbox(app).eventsOf(single.body.id);
    expect(events.map((e) => e.type)).toEqual(['accounting.period.closed', 'accounting.period.reopened']);
    await expectEvent(app, 'accounting.period.closed', { id: single.body.id, status: 'closed' });
    await expectEvent(app, 'accounting.period.reopened', { id: single.body.id, status: 'open' });
  });

  it('seeds the QA fixtures: chart of accounts, an open and a closed period', async () => {
    expect(Object.keys(fx.accounts).sort()).toEqual([
      'cash',
      'cogs',
      'expense',
      'inventory',
      'payables',
      'receivables',
      'revenue',
    ]);
    expect(
      (await live.get(`/v1/accounting/ledger-accounts/${fx.accounts.receivables}`).expect(200)).body
        .control_role,
    ).toBe('receivables');
    expect((await live.get(`/v1/accounting/periods/${fx.openPeriod.id}`).expect(200)).body.status).toBe(
      'open',
    );
    expect((await live.get(`/v1/accounting/periods/${fx.closedPeriod.id}`).expect(200)).body).toMatchObject({
      status: 'closed',
      start_date: fx.closedPeriod.start_date,
    });
  });

  it('isolates entities and modes and needs accounting scopes', async () => {
    const other = api(app, app.seed.entities.secondary.keys.live);
    const test = api(app, app.seed.entities.primary.keys.test);
    for (const path of [
      `/v1/accounting/ledger-accounts/${fx.accounts.cash}`,
      `/v1/accounting/periods/${fx.openPeriod.id}`,
    ]) {
      expectError(await other.get(path), 404, 'not_found');
      expectError(await test.get(path), 404, 'not_found');
    }
    expectError(await other.post(`/v1/accounting/periods/${fx.openPeriod.id}/close`), 404, 'not_found');
    expectError(
      await other.patch(`/v1/accounting/ledger-accounts/${fx.accounts.cash}`).send({ name: 'x' }),
      404,
      'not_found',
    );
    const readOnly = api(app, app.seed.entities.primary.keys.read_only);
    await readOnly.get('/v1/accounting/ledger-accounts').expect(200);
    expectError(
      await readOnly.post('/v1/accounting/ledger-accounts').send({ code: 'q', name: 'q', type: 'asset' }),
      403,
      'insufficient_scope',
      {
        required: 'accounting:write',
      },
    );
    expectError(
      await api(app, app.seed.entities.primary.keys.orders_only).get('/v1/accounting/settings'),
      403,
      'insufficient_scope',
      {
        required: 'accounting:read',
      },
    );
  });
});
