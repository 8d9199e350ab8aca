import { expectEvent } from '../support/expect-event';
import { RecurringJournalEntriesService, RecurringTemplateRepository } from '#contexts/accounting';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { asEntity } from '../support/as-entity';
import { api, expectError } from '../support/http';
import { outbox } from '../support/outbox';
import { startTestApp, TestApp } from '../support/test-app';
import {
  ledgerFixtures,
  LedgerFixtures,
  trialBalance,
  twoLines,
  updateLedgerAccount,
} from './support/accounting-fixtures';

describe('recurring journal entries', () => {
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

  const template = (extra: Record<string, unknown> = {}) => ({
    name: 'Rent',
    frequency: 'monthly',
    next_run_date: '2099-01-31',
    lines: twoLines(fx.accounts.expense, fx.accounts.cash, 1500),
    ...extra,
  });

  it('creates, lists, updates and deletes templates, checking their lines', async () => {
    const created = (
      await live
        .post('/v1/recurring-journal-entries')
        .send(template({ description: 'Office' }))
        .expect(201)
    ).body;
    expect(created).toMatchObject({
      object: 'recurring_journal_entry',
      name: 'Rent',
      frequency: 'monthly',
      next_run_date: '2099-01-31',
      end_date: null,
      active: true,
      last_run_date: null,
    });
    expect(created.lines).toEqual([
      expect.objectContaining({
        line_number: 1,
        account_id: fx.accounts.expense,
        debit_amount: 1500,
        credit_amount: 0,
      }),
      expect.objectContaining({
        line_number: 2,
        account_id: fx.accounts.cash,
        debit_amount: 0,
        credit_amount: 1500,
      }),
    ]);
    expect((await live.get(`/v1/recurring-journal-entries/${created.id}`).expect(200)).body).toEqual(created);
    const list = await live.get('/v1/recurring-journal-entries?active=true').expect(200);
    expect(list.body.data.map((t: { id: string }) => t.id)).toContain(created.id);
    const updated = await live
      .patch(`/v1/recurring-journal-entries/${created.id}`)
      .send({ frequency: 'quarterly', active: false })
      .expect(200);
    expect(updated.body).toMatchObject({ frequency: 'quarterly', active: false });
    expectError(await live.post(`/v1/recurring-journal-entries/${created.id}/run`), 409, 'invalid_state');
    expect(await live.delete(`/v1/recurring-journal-entries/${created.id}`).expect(200)).toMatchObject({
      body: { id: created.id, object: 'recurring_journal_entry', deleted: true },
    });
    expectError(await live.get(`/v1/recurring-journal-entries/${created.id}`), 404, 'not_found');

    expectError(
      await live.post('/v1/recurring-journal-entries').send(
        template({
          lines: [
            { account_id: fx.accounts.expense, debit_amount: 1 },
            { account_id: fx.accounts.cash, credit_amount: 2 },
          ],
        }),
      ),
      422,
      'unbalanced_entry',
    );
    expectError(
      await live.post('/v1/recurring-journal-entries').send(template({ frequency: 'hourly' })),
      400,
      'parameter_invalid',
      { param: 'frequency' },
    );
    expectError(
      await live.post('/v1/recurring-journal-entries').send(template({ end_date: '2098-01-01' })),
      400,
      'parameter_invalid',
      { param: 'end_date' },
    );
    expectError(
      await live.post('/v1/recurring-journal-entries').send(template({ next_run_date: undefined })),
      400,
      'parameter_missing',
      { param: 'next_run_date' },
    );
  });

  it('runs a template now regardless of next_run_date, advancing it, with the manual-entry checks', async () => {
    const created = (await live.post('/v1/recurring-journal-entries').send(template()).expect(201)).body;
    const run = await live.post(`/v1/recurring-journal-entries/${created.id}/run`).expect(200);
    expect(run.body).toMatchObject({
      object: 'journal_entry',
      status: 'posted',
      approval_status: 'auto_approved',
      source_type: 'RECURRING_JE',
      source_module: 'accounting',
      entry_date: today,
      total_debit: 1500,
      created_by_name: 'QA live',
    });
    expect(run.body.lines).toHaveLength(2);
    const after = (await live.get(`/v1/recurring-journal-entries/${created.id}`).expect(200)).body;
    expect(after).toMatchObject({
      next_run_date: '2099-02-28',
      last_run_date: today,
      last_journal_entry_id: run.body.id,
    });
    const second = await live.post(`/v1/recurring-journal-entries/${created.id}/run`).expect(200);
    expect(second.body.id).not.toBe(run.body.id);
    expect(
      (await live.get(`/v1/recurring-journal-entries/${created.id}`).expect(200)).body.next_run_date,
    ).toBe('2099-03-31');
    // A month-end template stays at month-end: its day of the month is kept, clamped per month.
    await live.post(`/v1/recurring-journal-entries/${created.id}/run`).expect(200);
    expect(
      (await live.get(`/v1/recurring-journal-entries/${created.id}`).expect(200)).body.next_run_date,
    ).toBe('2099-04-30');

    const events = await outbox(app).eventsOf(created.id);
    expect(events.map((e) => e.type)).toEqual([
      'accounting.recurring_journal_entry.ran',
      'accounting.recurring_journal_entry.ran',
      'accounting.recurring_journal_entry.ran',
    ]);
    await expectEvent(app, 'accounting.recurring_journal_entry.ran', {
      id: created.id,
      last_journal_entry_id: second.body.id,
    });

    // The checks of a manual entry apply at run time too.
    await updateLedgerAccount(live, fx.accounts.expense, { postable: false });
    expectError(
      await live.post(`/v1/recurring-journal-entries/${created.id}/run`),
      422,
      'account_not_postable',
      { param: 'lines[0].account_id' },
    );
    await updateLedgerAccount(live, fx.accounts.expense, { postable: true });
    // The update route refuses unbalanced lines: the stored template is changed through its repository.
    await asEntity(app, async () => {
      const templates = app.get(RecurringTemplateRepository);
      const stored = await templates.getById(created.id);
      stored.lines = stored.lines.map((l, i) => (i === 0 ? { ...l, debit_amount: '1499.0000' } : l));
      await app.get(TransactionHost).run(() => templates.save(stored));
    });
    expectError(await live.post(`/v1/recurring-journal-entries/${created.id}/run`), 422, 'unbalanced_entry');
    expect(
      (await live.get(`/v1/recurring-journal-entries/${created.id}`).expect(200)).body.next_run_date,
    ).toBe('2099-04-30');

    const ended = (
      await live
        .post('/v1/recurring-journal-entries')
        .send(template({ next_run_date: '2099-01-01', end_date: '2099-01-15' }))
        .expect(201)
    ).body;
    await live.post(`/v1/recurring-journal-entries/${ended.id}/run`).expect(200);
    expectError(await live.post(`/v1/recurring-journal-entries/${ended.id}/run`), 409, 'invalid_state');
    expect(await trialBalance(app, app.seed.entities.primary.id)).toBe('0.0000');
  });

  it('refuses a run dated in a closed period', async () => {
    const created = (await live.post('/v1/recurring-journal-entries').send(template()).expect(201)).body;
    await live.post(`/v1/accounting/periods/${fx.openPeriod.id}/close`).expect(200);
    try {
      expectError(await live.post(`/v1/recurring-journal-entries/${created.id}/run`), 422, 'period_closed');
    } finally {
      await live.post(`/v1/accounting/periods/${fx.openPeriod.id}/reopen`).expect(200);
    }
  });

  it('posts each due occurrence exactly once, even with two workers at the same time', async () => {
    const start = fx.openPeriod.start_date;
    const due = (
      await live
        .post('/v1/recurring-journal-entries')
        .send(
          template({
            name: 'Daily',
            frequency: 'daily',
            next_run_date: start,
            lines: twoLines(fx.accounts.expense, fx.accounts.cash, 10),
          }),
        )
        .expect(201)
    ).body;
    const service = app.get(RecurringJournalEntriesService);
    const [a, b] = await Promise.all([service.runDue(), service.runDue()]);
    const days = Math.round((Date.parse(today) - Date.parse(start)) / 86_400_000) + 1;
    const runsOf = (id: string) => asEntity(app, () => app.get(RecurringTemplateRepository).runsOf(id));
    const runs = await runsOf(due.id);
    expect(runs).toHaveLength(days);
    expect(new Set(runs.map((r) => r.runDate)).size).toBe(days);
    expect(runs.every((r) => r.trigger === 'schedule')).toBe(true);
    expect(a.posted + b.posted).toBeGreaterThanOrEqual(days);
    const entries = await Promise.all(
      runs.map(async (r) => (await live.get(`/v1/journal-entries/${r.journalEntryId}`).expect(200)).body),
    );
    expect(entries.map((e) => e.entry_date)).toEqual(runs.map((r) => r.runDate));
    expect(entries.every((e) => e.created_by === null && e.created_by_name === null)).toBe(true);
    const after = (await live.get(`/v1/recurring-journal-entries/${due.id}`).expect(200)).body;
    expect(after.next_run_date > today).toBe(true);
    const again = await service.runDue();
    expect(await runsOf(due.id)).toHaveLength(days);
    expect(again.failed).toBe(0);
  });

  it('seeds a balanced monthly template and isolates entities and modes', async () => {
    const seeded = (
      await live
        .get(`/v1/recurring-journal-entries/${app.seed.fixtures.recurring_journal_entry_id as string}`)
        .expect(200)
    ).body;
    expect(seeded.frequency).toBe('monthly');
    const sum = (side: 'debit_amount' | 'credit_amount') =>
      seeded.lines.reduce((s: number, l: Record<string, number>) => s + l[side], 0);
    expect(sum('debit_amount')).toBe(sum('credit_amount'));
    for (const key of [app.seed.entities.primary.keys.test, app.seed.entities.secondary.keys.live]) {
      expectError(await api(app, key).get(`/v1/recurring-journal-entries/${seeded.id}`), 404, 'not_found');
      expectError(
        await api(app, key).post(`/v1/recurring-journal-entries/${seeded.id}/run`),
        404,
        'not_found',
      );
    }
    expectError(
      await api(app, app.seed.entities.primary.keys.read_only).post(
        `/v1/recurring-journal-entries/${seeded.id}/run`,
      ),
      403,
      'insufficient_scope',
      {
        required: 'accounting:write',
      },
    );
  });
});
