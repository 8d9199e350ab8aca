import { randomUUID } from 'node:crypto';
import Decimal from 'decimal.js';
import { DataSource } from 'typeorm';
import {
  JournalEntryRecord,
  JournalLineRecord,
  EntryToWrite,
  JournalEntryWriter,
  AccountingSettingsRepository,
  JournalLineRepository,
} from '#contexts/accounting';
import { newId } from '#platform/persistence/ids';
import { asEntity } from '../support/as-entity';
import { api, expectError } from '../support/http';
import { outbox } from '../support/outbox';
import { startTestApp, TestApp } from '../support/test-app';
import { ledgerFixtures, LedgerFixtures, trialBalance } from './support/accounting-fixtures';

/**
 * The statement that numbers and writes standalone entries, against real PostgreSQL: entries
 * submitted together share one statement and take consecutive numbers, an entry whose period
 * is not open is skipped (null), and an entry that makes the shared statement fail fails alone.
 */
describe('journal entry writer', () => {
  let app: TestApp;
  let fx: LedgerFixtures;
  let writer: JournalEntryWriter;
  let entityId: string;
  let prefix: string;

  beforeAll(async () => {
    app = await startTestApp();
    fx = ledgerFixtures(app);
    writer = app.get(JournalEntryWriter);
    entityId = app.seed.entities.primary.id;
    // The counter row is created with the entity's accounting settings.
    prefix = (await settings()).entryNumberPrefix;
  });

  /** The primary entity's live accounting settings row (the entry counter), created if missing. */
  const settings = () => asEntity(app, () => app.get(AccountingSettingsRepository).ensure('WT'));

  const numberText = (n: number) => `${prefix}-${String(n).padStart(6, '0')}`;
  afterAll(() => app.close());

  /** A balanced two-line entry of `amount` in `periodId`, debiting `debitAccount`. */
  function item(periodId: string, amount: number, debitAccount = fx.accounts.expense): EntryToWrite {
    const id = newId();
    const now = new Date();
    const entry = Object.assign(new JournalEntryRecord(), {
      id,
      entityId,
      livemode: true,
      createdAt: now,
      updatedAt: now,
      version: 1,
      periodId,
      entryNumber: `pending-${id}`,
      entryDate: fx.openPeriod.start_date,
      entryType: 'standard',
      status: 'posted',
      approvalStatus: 'auto_approved',
      description: `writer test ${amount}`,
      sourceType: 'MANUAL',
      sourceId: null,
      sourceModule: null,
      isReversing: false,
      reversalOfId: null,
      reverseInPeriodId: null,
      batchId: null,
      totalDebit: new Decimal(amount),
      totalCredit: new Decimal(amount),
      postedAt: now,
      idempotencyKey: null,
      createdBy: null,
      createdByName: null,
    });
    const line = (n: number, accountId: string, debit: number, credit: number) =>
      Object.assign(new JournalLineRecord(), {
        id: newId(),
        entityId,
        livemode: true,
        journalEntryId: id,
        lineNumber: n,
        accountId,
        debitAmount: new Decimal(debit),
        creditAmount: new Decimal(credit),
        description: null,
        locationId: null,
        departmentId: null,
        classId: null,
        projectId: null,
      });
    return {
      entry,
      lines: [line(1, debitAccount, amount, 0), line(2, fx.accounts.cash, 0, amount)],
      event: {
        id: newId(),
        entityId,
        livemode: true,
        type: 'accounting.journal_entry.posted',
        apiVersion: '2026-11-01',
        data: { object: { id, object: 'journal_entry', entry_number: entry.entryNumber } },
        requestId: null,
        createdAt: now,
      },
    };
  }

  const counter = async () => Number((await settings()).lastEntryNumber);

  it('writes entries submitted together in one statement, with consecutive numbers in their events', async () => {
    const statements = jest.spyOn(app.get(DataSource).manager, 'query');
    const before = await counter();
    const items = [1, 2, 3, 4, 5].map((n) => item(fx.openPeriod.id, n));
    const numbers = await Promise.all(items.map((i) => writer.write(i)));
    const writes = statements.mock.calls.filter(([sql]) => String(sql).includes('jsonb_to_recordset'));
    statements.mockRestore();
    expect(writes).toHaveLength(1);
    expect(numbers).toEqual([1, 2, 3, 4, 5].map((k) => numberText(before + k)));
    const eventIds = new Set(items.map((i) => i.event.id));
    const events = (await outbox(app).all()).filter((e) => eventIds.has(e.id));
    expect(Object.fromEntries(events.map((e) => [e.data.object.id, e.data.object.entry_number]))).toEqual(
      Object.fromEntries(items.map((i, k) => [i.entry.id, numbers[k]])),
    );
    expect(await trialBalance(app, entityId)).toBe('0.0000');
  });

  it('skips an entry whose period is closed and isolates an entry that fails the shared statement', async () => {
    const before = await counter();
    const good = [item(fx.openPeriod.id, 10), item(fx.openPeriod.id, 11)];
    const closed = item(fx.closedPeriod.id, 12);
    // An account that does not exist: the foreign key fails the shared statement.
    const broken = item(fx.openPeriod.id, 13, randomUUID());
    const results = await Promise.allSettled([
      writer.write(good[0]),
      writer.write(broken),
      writer.write(closed),
      writer.write(good[1]),
    ]);
    expect(results[0]).toEqual({ status: 'fulfilled', value: numberText(before + 1) });
    expect(results[1].status).toBe('rejected');
    expect(String((results[1] as PromiseRejectedResult).reason)).toMatch(/foreign key/);
    expect(results[2]).toEqual({ status: 'fulfilled', value: null });
    expect(results[3]).toEqual({ status: 'fulfilled', value: numberText(before + 2) });
    // Nothing of the skipped or failed entries was written, and no number was used for them.
    const live = api(app, app.seed.entities.primary.keys.live);
    for (const unwritten of [closed, broken]) {
      expectError(await live.get(`/v1/journal-entries/${unwritten.entry.id}`), 404, 'not_found');
      expect(await asEntity(app, () => app.get(JournalLineRepository).ofEntry(unwritten.entry.id))).toEqual(
        [],
      );
    }
    // The same reads find what was written.
    const [written] = results as PromiseFulfilledResult<string>[];
    expect(written.value).toEqual(expect.any(String));
    expect(await asEntity(app, () => app.get(JournalLineRepository).ofEntry(good[0].entry.id))).toHaveLength(
      2,
    );
    const unwrittenEvents = new Set([closed.event.id, broken.event.id]);
    expect((await outbox(app).all()).filter((e) => unwrittenEvents.has(e.id))).toEqual([]);
    expect(await counter()).toBe(before + 2);
    expect(await trialBalance(app, entityId)).toBe('0.0000');
  });
});
