import { api, expectError } from '../support/http';
import { allJournalEntries } from '../support/journal';
import { expectEvent } from '../support/expect-event';
import { outbox } from '../support/outbox';
import { startTestApp, TestApp } from '../support/test-app';
import {
  entriesDisagreeingWithLines,
  ledgerFixtures,
  LedgerFixtures,
  trialBalance,
  twoLines,
  updateLedgerAccount,
} from './support/accounting-fixtures';
import { PostingTestModule } from './support/posting-test.module';

describe('journal entries', () => {
  let app: TestApp;
  let live: ReturnType<typeof api>;
  let fx: LedgerFixtures;
  let date: string;

  beforeAll(async () => {
    app = await startTestApp({}, { extraModules: [PostingTestModule] });
    live = api(app, app.seed.entities.primary.keys.live);
    fx = ledgerFixtures(app);
    date = fx.openPeriod.start_date;
  });
  afterAll(() => app.close());

  const entry = (amount = 100, extra: Record<string, unknown> = {}) => ({
    entry_date: date,
    description: 'Office supplies',
    lines: twoLines(fx.accounts.expense, fx.accounts.cash, amount),
    ...extra,
  });

  it('posts a balanced manual entry with every field, lines on retrieve only, and numbers it with the entity prefix', async () => {
    const res = await live
      .post('/v1/journal-entries')
      .set('Idempotency-Key', 'je-create-1')
      .send({
        entry_date: date,
        description: 'Supplies',
        entry_type: 'adjustment',
        lines: [
          {
            account_id: fx.accounts.expense,
            debit_amount: 0.1,
            description: 'pens',
            department_id: '0190a8a0-0000-7000-8000-000000000001',
          },
          {
            account_id: fx.accounts.expense,
            debit_amount: 0.2,
            project_id: '0190a8a0-0000-7000-8000-000000000002',
          },
          {
            account_id: fx.accounts.cash,
            credit_amount: 0.3,
            location_id: '0190a8a0-0000-7000-8000-000000000003',
          },
        ],
      })
      .expect(201);
    const body = res.body;
    expect(body).toMatchObject({
      object: 'journal_entry',
      entity_id: app.seed.entities.primary.id,
      period_id: fx.openPeriod.id,
      entry_date: date,
      entry_type: 'adjustment',
      status: 'posted',
      approval_status: 'auto_approved',
      source_type: 'MANUAL',
      source_id: null,
      is_reversing: false,
      total_debit: 0.3,
      total_credit: 0.3,
      idempotency_key: 'je-create-1',
      created_by_name: 'QA live',
      approved_by: null,
      rejection_reason: null,
    });
    expect(body.entry_number).toMatch(/^QA1-JE-\d{6}$/);
    expect(body.created_by).toEqual(expect.any(String));
    expect(body.posted_at).toEqual(expect.any(String));
    expect(body.lines).toHaveLength(3);
    expect(body.lines[0]).toMatchObject({
      line_number: 1,
      account_id: fx.accounts.expense,
      debit_amount: 0.1,
      credit_amount: 0,
      description: 'pens',
      department_id: '0190a8a0-0000-7000-8000-000000000001',
      location_id: null,
      class_id: null,
      reconciled: false,
      reconciled_at: null,
      journal_entry_id: body.id,
    });
    expect(body.lines[2]).toMatchObject({
      credit_amount: 0.3,
      location_id: '0190a8a0-0000-7000-8000-000000000003',
    });

    const got = await live.get(`/v1/journal-entries/${body.id}`).expect(200);
    expect(got.body).toEqual(body);
    const list = await live.get('/v1/journal-entries?limit=100').expect(200);
    const listed = list.body.data.find((e: { id: string }) => e.id === body.id);
    expect(listed).toBeDefined();
    expect(listed.lines).toBeUndefined();
    expect(listed.entry_number).toBe(body.entry_number);

    const expanded = await live
      .get(`/v1/journal-entries/${body.id}?expand[]=period&expand[]=lines.account`)
      .expect(200);
    expect(expanded.body.period).toMatchObject({ id: fx.openPeriod.id, object: 'accounting_period' });
    expect(expanded.body.lines[0].account).toMatchObject({
      id: fx.accounts.expense,
      object: 'ledger_account',
    });

    const events = await outbox(app).eventsOf(body.id);
    expect(events.map((e) => e.type)).toEqual(['accounting.journal_entry.posted']);
    const { lines: _lines, ...withoutLines } = body;
    expect(events[0].data.object).toEqual(withoutLines);
    // 0.1 + 0.2 of supplies against 0.3 of cash.
    await expectEvent(app, 'accounting.journal_entry.posted', {
      id: body.id,
      status: 'posted',
      description: 'Supplies',
      total_debit: 0.3,
      total_credit: 0.3,
    });
  });

  it('enforces the three rules and postable accounts with the contract codes', async () => {
    const unbalanced = await live.post('/v1/journal-entries').send({
      entry_date: date,
      lines: [
        { account_id: fx.accounts.expense, debit_amount: 100.0001 },
        { account_id: fx.accounts.cash, credit_amount: 100 },
      ],
    });
    expectError(unbalanced, 422, 'unbalanced_entry', { type: 'validation_error', param: 'lines' });
    expectError(
      await live.post('/v1/journal-entries').send(entry(10, { entry_date: fx.closedPeriod.start_date })),
      422,
      'period_closed',
      {
        param: 'entry_date',
      },
    );
    expectError(
      await live.post('/v1/journal-entries').send(entry(10, { entry_date: '1990-06-01' })),
      422,
      'period_closed',
      { param: 'entry_date' },
    );

    const header = (await live.get('/v1/accounting/ledger-accounts?postable=false').expect(200)).body.data[0];
    expect(header).toBeDefined();
    expectError(
      await live.post('/v1/journal-entries').send({
        entry_date: date,
        lines: [
          { account_id: fx.accounts.expense, debit_amount: 5 },
          { account_id: header.id, credit_amount: 5 },
        ],
      }),
      422,
      'account_not_postable',
      { param: 'lines[1].account_id' },
    );
    expectError(
      await live.post('/v1/journal-entries').send(entry(10, { source_type: 'BOGUS' })),
      400,
      'parameter_invalid',
      { param: 'source_type' },
    );
    expectError(
      await live.post('/v1/journal-entries').send(entry(10, { status: 'pending_approval' })),
      400,
      'parameter_invalid',
      { param: 'status' },
    );
    expectError(await live.post('/v1/journal-entries').send({ entry_date: date }), 400, 'parameter_missing', {
      param: 'lines',
    });
    expectError(
      await live.post('/v1/journal-entries').send({ lines: entry().lines }),
      400,
      'parameter_missing',
      { param: 'entry_date' },
    );
    expectError(
      await live.post('/v1/journal-entries').send(entry(10, { entry_date: '2026-02-30' })),
      400,
      'parameter_invalid',
      { param: 'entry_date' },
    );
    expectError(
      await live.post('/v1/journal-entries').send({
        entry_date: date,
        lines: [
          { account_id: fx.accounts.cash, debit_amount: 1.00001 },
          { account_id: fx.accounts.expense, credit_amount: 1 },
        ],
      }),
      400,
      'parameter_invalid',
      { param: 'lines[0].debit_amount' },
    );
    expectError(
      await live.post('/v1/journal-entries').send({
        entry_date: date,
        lines: [
          { account_id: fx.accounts.cash, debit_amount: 1, credit_amount: 1 },
          { account_id: fx.accounts.expense, credit_amount: 0 },
        ],
      }),
      400,
      'parameter_invalid',
      { param: 'lines[0].credit_amount' },
    );
    expectError(
      await live.post('/v1/journal-entries').send({
        entry_date: date,
        lines: [
          { account_id: fx.accounts.cash, debit_amount: -1 },
          { account_id: fx.accounts.expense, credit_amount: 1 },
        ],
      }),
      400,
      'parameter_invalid',
      { param: 'lines[0].debit_amount' },
    );
    expectError(
      await live.post('/v1/journal-entries').send({
        entry_date: date,
        lines: [
          { account_id: '0190a8a0-0000-7000-8000-000000000009', debit_amount: 1 },
          { account_id: fx.accounts.expense, credit_amount: 1 },
        ],
      }),
      400,
      'parameter_invalid',
      { param: 'lines[0].account_id' },
    );
    expectError(
      await live.post('/v1/journal-entries').send(
        entry(10, {
          lines: [{ account_id: fx.accounts.cash, debit_amount: 1, colour: 'x' }, entry().lines[1]],
        }),
      ),
      400,
      'parameter_unknown',
      {
        param: 'lines[0].colour',
      },
    );
    expectError(await live.get('/v1/journal-entries?source_type=NOPE'), 400, 'parameter_invalid', {
      param: 'source_type',
    });
    // Nothing unbalanced was stored.
    const stored = await allJournalEntries(live);
    expect(stored.filter((e) => e.total_debit !== e.total_credit)).toEqual([]);
    expect(await entriesDisagreeingWithLines(app, app.seed.entities.primary.id)).toBe(0);
    expect(await trialBalance(app, app.seed.entities.primary.id)).toBe('0.0000');
  });

  it('accepts every allowed source_type', async () => {
    for (const sourceType of ['INVOICE', 'LABEL_REFUND_DENIED', 'MARKETPLACE1_FEES', 'RECURRING_JE']) {
      const res = await live
        .post('/v1/journal-entries')
        .send(entry(1, { source_type: sourceType }))
        .expect(201);
      expect(res.body.source_type).toBe(sourceType);
    }
    const filtered = await live.get('/v1/journal-entries?source_type=MARKETPLACE1_FEES').expect(200);
    expect(filtered.body.data).toHaveLength(1);
  });

  it('edits and deletes drafts only; posted entries are immutable', async () => {
    const draft = (
      await live
        .post('/v1/journal-entries')
        .send(entry(50, { status: 'draft' }))
        .expect(201)
    ).body;
    expect(draft).toMatchObject({ status: 'draft', approval_status: null, posted_at: null });
    const edited = await live
      .patch(`/v1/journal-entries/${draft.id}`)
      .send({ description: 'Edited', lines: twoLines(fx.accounts.expense, fx.accounts.payables, 75.25) })
      .expect(200);
    expect(edited.body).toMatchObject({ description: 'Edited', total_debit: 75.25, status: 'draft' });
    expect(edited.body.lines.map((l: { account_id: string }) => l.account_id)).toEqual([
      fx.accounts.expense,
      fx.accounts.payables,
    ]);
    expectError(
      await live.patch(`/v1/journal-entries/${draft.id}`).send({
        lines: [
          { account_id: fx.accounts.cash, debit_amount: 1 },
          { account_id: fx.accounts.expense, credit_amount: 2 },
        ],
      }),
      422,
      'unbalanced_entry',
    );
    expectError(
      await live.patch(`/v1/journal-entries/${draft.id}`).send({ entry_date: fx.closedPeriod.end_date }),
      422,
      'period_closed',
    );

    const posted = await live.post(`/v1/journal-entries/${draft.id}/post`).expect(200);
    expect(posted.body).toMatchObject({
      status: 'posted',
      approval_status: 'auto_approved',
      entry_number: draft.entry_number,
    });
    const patchPosted = await live.patch(`/v1/journal-entries/${draft.id}`).send({ description: 'nope' });
    expectError(patchPosted, 409, 'invalid_state', { type: 'conflict' });
    expect(patchPosted.body.hint).toMatch(/posted/);
    expectError(await live.delete(`/v1/journal-entries/${draft.id}`), 409, 'invalid_state');
    expectError(await live.post(`/v1/journal-entries/${draft.id}/void`), 409, 'invalid_state');
    expectError(await live.post(`/v1/journal-entries/${draft.id}/post`), 409, 'invalid_state');
    expectError(await live.post(`/v1/journal-entries/${draft.id}/approve`), 409, 'invalid_state');

    const another = (
      await live
        .post('/v1/journal-entries')
        .send(entry(5, { status: 'draft' }))
        .expect(201)
    ).body;
    expect(await live.delete(`/v1/journal-entries/${another.id}`).expect(200)).toMatchObject({
      body: { id: another.id, object: 'journal_entry', deleted: true },
    });
    expectError(await live.get(`/v1/journal-entries/${another.id}`), 404, 'not_found');

    const third = (
      await live
        .post('/v1/journal-entries')
        .send(entry(5, { status: 'draft' }))
        .expect(201)
    ).body;
    const voided = await live.post(`/v1/journal-entries/${third.id}/void`).expect(200);
    expect(voided.body.status).toBe('voided');
    expectError(await live.post(`/v1/journal-entries/${third.id}/post`), 409, 'invalid_state');
    const events = await outbox(app).eventsOf(third.id);
    expect(events.map((e) => e.type)).toEqual([
      'accounting.journal_entry.created',
      'accounting.journal_entry.voided',
    ]);
    await expectEvent(app, 'accounting.journal_entry.created', {
      id: third.id,
      status: 'draft',
      total_debit: 5,
    });
    await expectEvent(app, 'accounting.journal_entry.voided', {
      id: third.id,
      status: 'voided',
      total_debit: 5,
    });
  });

  it('routes manual entries above the threshold through approval and rejection', async () => {
    await live.patch('/v1/accounting/settings').send({ approval_threshold: 1000 }).expect(200);
    try {
      const small = await live.post('/v1/journal-entries').send(entry(1000)).expect(201);
      expect(small.body).toMatchObject({ status: 'posted', approval_status: 'auto_approved' });
      const big = (await live.post('/v1/journal-entries').send(entry(1000.01)).expect(201)).body;
      expect(big).toMatchObject({
        status: 'pending_approval',
        approval_status: 'pending_approval',
        posted_at: null,
      });
      expectError(
        await live.patch(`/v1/journal-entries/${big.id}`).send({ description: 'x' }),
        409,
        'invalid_state',
      );
      const approved = await live.post(`/v1/journal-entries/${big.id}/approve`).expect(200);
      expect(approved.body).toMatchObject({
        status: 'posted',
        approval_status: 'approved',
        approved_by: big.created_by,
      });
      expect(approved.body.approved_at).toEqual(expect.any(String));
      expect(approved.body.posted_at).toEqual(expect.any(String));

      const toReject = (await live.post('/v1/journal-entries').send(entry(2000)).expect(201)).body;
      expectError(
        await live.post(`/v1/journal-entries/${toReject.id}/reject`).send({}),
        400,
        'parameter_missing',
        { param: 'rejection_reason' },
      );
      const rejected = await live
        .post(`/v1/journal-entries/${toReject.id}/reject`)
        .send({ rejection_reason: 'Wrong account' })
        .expect(200);
      expect(rejected.body).toMatchObject({
        status: 'rejected',
        approval_status: 'rejected',
        rejection_reason: 'Wrong account',
        rejected_by: big.created_by,
      });
      expectError(await live.post(`/v1/journal-entries/${toReject.id}/approve`), 409, 'invalid_state');

      const draft = (
        await live
          .post('/v1/journal-entries')
          .send(entry(5000, { status: 'draft' }))
          .expect(201)
      ).body;
      const submitted = await live.post(`/v1/journal-entries/${draft.id}/post`).expect(200);
      expect(submitted.body).toMatchObject({
        status: 'pending_approval',
        approval_status: 'pending_approval',
      });
      // A pending entry blocks closing its period.
      expectError(await live.post(`/v1/accounting/periods/${fx.openPeriod.id}/close`), 409, 'invalid_state');
      expect((await live.post(`/v1/journal-entries/${draft.id}/void`).expect(200)).body.status).toBe(
        'voided',
      );

      const types = (id: string) => outbox(app).typesOf(id);
      expect(await types(big.id)).toEqual([
        'accounting.journal_entry.created',
        'accounting.journal_entry.approved',
        'accounting.journal_entry.posted',
      ]);
      expect(await types(toReject.id)).toEqual([
        'accounting.journal_entry.created',
        'accounting.journal_entry.rejected',
      ]);
      await expectEvent(app, 'accounting.journal_entry.approved', {
        id: big.id,
        approval_status: 'approved',
        total_debit: 1000.01,
      });
      await expectEvent(app, 'accounting.journal_entry.rejected', {
        id: toReject.id,
        approval_status: 'rejected',
        total_debit: 2000,
      });
    } finally {
      await live.patch('/v1/accounting/settings').send({ approval_threshold: null }).expect(200);
    }
  });

  it('reverses a posted entry with swapped lines, linking both ways', async () => {
    const original = (await live.post('/v1/journal-entries').send(entry(123.45)).expect(201)).body;
    const reversed = await live.post(`/v1/journal-entries/${original.id}/reverse`).send({}).expect(200);
    expect(reversed.body).toMatchObject({
      id: original.id,
      status: 'reversed',
      reversed_by_id: expect.any(String),
    });
    const reversal = (await live.get(`/v1/journal-entries/${reversed.body.reversed_by_id}`).expect(200)).body;
    expect(reversal).toMatchObject({
      is_reversing: true,
      reversal_of_id: original.id,
      status: 'posted',
      approval_status: 'auto_approved',
      source_type: 'MANUAL_REVERSAL',
      source_id: original.id,
      entry_date: original.entry_date,
      total_debit: 123.45,
    });
    expect(
      reversal.lines.map((l: { account_id: string; debit_amount: number; credit_amount: number }) => [
        l.account_id,
        l.debit_amount,
        l.credit_amount,
      ]),
    ).toEqual([
      [fx.accounts.expense, 0, 123.45],
      [fx.accounts.cash, 123.45, 0],
    ]);
    expectError(await live.post(`/v1/journal-entries/${original.id}/reverse`).send({}), 409, 'invalid_state');
    expectError(
      await live.post(`/v1/journal-entries/${original.id}/reverse`).send({ entry_date: 'soon' }),
      400,
      'parameter_invalid',
      { param: 'entry_date' },
    );

    const second = (await live.post('/v1/journal-entries').send(entry(10)).expect(201)).body;
    const periods = (await live.get('/v1/accounting/periods?status=open&limit=100').expect(200)).body.data;
    const later = periods.find((p: { start_date: string }) => p.start_date > fx.openPeriod.end_date);
    const inPeriod = await live
      .post(`/v1/journal-entries/${second.id}/reverse`)
      .send({ reverse_in_period_id: later.id })
      .expect(200);
    const reversal2 = (await live.get(`/v1/journal-entries/${inPeriod.body.reversed_by_id}`).expect(200))
      .body;
    expect(reversal2).toMatchObject({
      entry_date: later.start_date,
      period_id: later.id,
      reverse_in_period_id: later.id,
    });

    const third = (await live.post('/v1/journal-entries').send(entry(10)).expect(201)).body;
    expectError(
      await live
        .post(`/v1/journal-entries/${third.id}/reverse`)
        .send({ reverse_in_period_id: fx.closedPeriod.id }),
      422,
      'period_closed',
      {
        param: 'reverse_in_period_id',
      },
    );
    expectError(
      await live
        .post(`/v1/journal-entries/${third.id}/reverse`)
        .send({ entry_date: fx.closedPeriod.start_date }),
      422,
      'period_closed',
    );
    expect((await live.get(`/v1/journal-entries/${third.id}`).expect(200)).body.status).toBe('posted');
    const events = await outbox(app).eventsOf(original.id);
    expect(events.map((e) => e.type)).toEqual([
      'accounting.journal_entry.posted',
      'accounting.journal_entry.reversed',
    ]);
    await expectEvent(app, 'accounting.journal_entry.reversed', {
      id: original.id,
      status: 'reversed',
      reversed_by_id: reversed.body.reversed_by_id,
      total_debit: 123.45,
    });
    expect(await trialBalance(app, app.seed.entities.primary.id)).toBe('0.0000');
  });

  it('posts system entries through LedgerPostingService: roles, batches, once per source, inside the caller transaction', async () => {
    const batchId = '0190a8a0-0000-7000-8000-0000000000b1';
    const posting = (sourceId: string, extra: Record<string, unknown> = {}) => ({
      source_type: 'FULFILLMENT',
      source_id: sourceId,
      source_module: 'fulfillment',
      entry_date: date,
      description: 'Package shipped',
      batch_id: batchId,
      lines: [
        { role: 'cogs', debit: '40.1234' },
        { role: 'inventory', credit: '40.1234' },
      ],
      ...extra,
    });
    const first = await live.post('/v1/test-ledger-postings').send(posting('pkg-1')).expect(201);
    expect(first.body).toMatchObject({
      status: 'posted',
      approval_status: 'auto_approved',
      created_by_name: null,
      source_type: 'FULFILLMENT',
      source_id: 'pkg-1',
      source_module: 'fulfillment',
      batch_id: batchId,
      total_debit: 40.1234,
    });
    expect(first.body.lines.map((l: { account_id: string }) => l.account_id)).toEqual([
      fx.accounts.cogs,
      fx.accounts.inventory,
    ]);
    const again = await live
      .post('/v1/test-ledger-postings')
      .send(posting('pkg-1', { description: 'retry' }))
      .expect(201);
    expect(again.body.id).toBe(first.body.id);
    await live
      .post('/v1/test-ledger-postings')
      .send(
        posting('inv-1', {
          source_type: 'INVOICE',
          lines: [
            { role: 'receivables', debit: 110 },
            { role: 'revenue', credit: 100 },
            { role: 'tax', credit: 10 },
          ],
        }),
      )
      .expect(201);
    const batch = await live.get(`/v1/journal-entries?batch_id=${batchId}`).expect(200);
    expect(batch.body.data).toHaveLength(2);
    expect(batch.body.data.every((e: { lines?: unknown }) => e.lines === undefined)).toBe(true);

    // The entry rolls back with the caller's failed transaction, and its number is given back.
    const before = (await live.get('/v1/journal-entries?limit=1').expect(200)).body.data[0].entry_number;
    await live
      .post('/v1/test-ledger-postings')
      .send(posting('pkg-fail', { fail_after: true }))
      .expect(500);
    expect((await allJournalEntries(live)).filter((e) => e.source_id === 'pkg-fail')).toEqual([]);
    const next = (await live.post('/v1/journal-entries').send(entry(1)).expect(201)).body.entry_number;
    expect(Number(next.slice(-6))).toBe(Number(before.slice(-6)) + 1);

    // Same rules as manual entries.
    const unbalanced = await live.post('/v1/test-ledger-postings').send(
      posting('pkg-2', {
        lines: [
          { role: 'cogs', debit: 1 },
          { role: 'inventory', credit: 2 },
        ],
      }),
    );
    expectError(unbalanced, 422, 'unbalanced_entry');
    expectError(
      await live
        .post('/v1/test-ledger-postings')
        .send(posting('pkg-3', { entry_date: fx.closedPeriod.start_date })),
      422,
      'period_closed',
    );
    await updateLedgerAccount(live, fx.accounts.payables, { control_role: null });
    expectError(
      await live.post('/v1/test-ledger-postings').send(
        posting('pkg-4', {
          lines: [
            { role: 'inventory', debit: 1 },
            { role: 'payables', credit: 1 },
          ],
        }),
      ),
      422,
      'account_not_postable',
      { param: 'lines[1].role' },
    );
    await updateLedgerAccount(live, fx.accounts.payables, { control_role: 'payables' });

    // Concurrent postings of one source give one entry.
    const racers = await Promise.all(
      Array.from({ length: 8 }, () => live.post('/v1/test-ledger-postings').send(posting('pkg-race'))),
    );
    expect(new Set(racers.map((r) => r.status))).toEqual(new Set([201]));
    expect(new Set(racers.map((r) => r.body.id)).size).toBe(1);
  });

  it('gives 50 parallel postings 50 distinct, gapless entry numbers', async () => {
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => live.post('/v1/journal-entries').send(entry(i + 1))),
    );
    expect(results.map((r) => r.status)).toEqual(Array(50).fill(201));
    const all = await allJournalEntries(live);
    const numbers = all.map((r) => Number(r.entry_number.slice(-6)));
    expect(new Set(numbers).size).toBe(numbers.length);
    // 50 distinct numbers spanning exactly 50 values: consecutive, no gap among them.
    const ours = results.map((r) => Number(String(r.body.entry_number).slice(-6))).sort((a, b) => a - b);
    expect(new Set(ours).size).toBe(50);
    expect(ours[49] - ours[0]).toBe(49);
    // Numbered by the writing statement: each posted event carries the entry's committed number, never the placeholder.
    const ids = new Set(results.map((r) => r.body.id as string));
    const events = (await outbox(app).all('accounting.journal_entry.posted')).filter((e) =>
      ids.has(e.data.object.id as string),
    );
    expect(Object.fromEntries(events.map((e) => [e.data.object.id, e.data.object.entry_number]))).toEqual(
      Object.fromEntries(results.map((r) => [r.body.id, r.body.entry_number])),
    );
    expect(all.filter((e) => e.entry_number.startsWith('pending-'))).toEqual([]);
  });

  it('isolates entities and modes and needs accounting scopes', async () => {
    const created = (await live.post('/v1/journal-entries').send(entry(3)).expect(201)).body;
    const test = api(app, app.seed.entities.primary.keys.test);
    const other = api(app, app.seed.entities.secondary.keys.live);
    for (const client of [test, other]) {
      expectError(await client.get(`/v1/journal-entries/${created.id}`), 404, 'not_found');
      expectError(await client.post(`/v1/journal-entries/${created.id}/reverse`).send({}), 404, 'not_found');
      expectError(
        await client.patch(`/v1/journal-entries/${created.id}`).send({ description: 'x' }),
        404,
        'not_found',
      );
    }
    // The test book has its own accounts: a live account id is unknown there.
    expectError(await test.post('/v1/journal-entries').send(entry(3)), 400, 'parameter_invalid', {
      param: 'lines[0].account_id',
    });
    // The secondary entity has no periods at all.
    expectError(await other.post('/v1/journal-entries').send(entry(3)), 400, 'parameter_invalid');
    const readOnly = api(app, app.seed.entities.primary.keys.read_only);
    await readOnly.get(`/v1/journal-entries/${created.id}`).expect(200);
    expectError(await readOnly.post('/v1/journal-entries').send(entry(3)), 403, 'insufficient_scope', {
      required: 'accounting:write',
    });
    expectError(
      await readOnly.post(`/v1/journal-entries/${created.id}/reverse`).send({}),
      403,
      'insufficient_scope',
    );
  });
});
