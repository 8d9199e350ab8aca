import { INestApplicationContext } from '@nestjs/common';
import { allJournalEntries } from '../support/journal';
import { ledgerFixtures, LedgerFixtures, trialBalance } from '../accounting/support/accounting-fixtures';
import { eventCountsSince, eventsSince, lastEventId } from '../support/event-counts';
import { api } from '../support/http';
import { startDispatcher } from '../support/dispatcher';
import { LONG_WAIT, waitFor } from '../support/eventually';
import { outbox } from '../support/outbox';
import { startTestApp, TestApp } from '../support/test-app';
import { accountNames, mappedExternalIds, productSkus, variantSkus } from './support/imported-rows';
import { importErrors, rowErrorsOf } from './support/import-errors';
import { watchImporter } from './support/watched-importer';

const FINISHED = ['completed', 'completed_with_errors', 'failed'];
const UNKNOWN_UUID = '0196a0b2-7c3d-7e4f-8a9b-0c1d2e3f4a5b';

describe('bulk imports of accounts, products and journal entries', () => {
  let app: TestApp;
  let worker: INestApplicationContext;
  let entityId: string;
  let base: string;
  let migration: ReturnType<typeof api>;
  let live: ReturnType<typeof api>;

  beforeAll(async () => {
    app = await startTestApp();
    entityId = app.seed.entities.primary.id;
    base = `/v1/entities/${entityId}/migration/imports`;
    migration = api(app, app.seed.entities.primary.keys.migration);
    live = api(app, app.seed.entities.primary.keys.live);
    worker = await startDispatcher(app);
  });
  afterAll(async () => {
    await worker?.close();
    await app.close();
  });

  const runImport = async (resource: string, records: unknown[]) => {
    const created = await migration.post(base).send({ resource, records }).expect(201);
    return waitFor(async () => {
      const res = await migration.get(`${base}/${created.body.id}`).expect(200);
      return FINISHED.includes(res.body.status) && res.body;
    }, LONG_WAIT);
  };
  const errorsOf = (importId: string) => importErrors(migration, base, importId);
  const rowErrors = (importId: string) => rowErrorsOf(migration, base, importId);
  /** The resources mapped to the external ids `${prefix}1` to `${prefix}${n}` of a resource. */
  const mappedIds = (importId: string, resource: string, n: number, prefix: string) =>
    mappedExternalIds(
      app,
      importId,
      resource,
      Array.from({ length: n }, (_, i) => `${prefix}${i + 1}`),
    );
  const eventCounts = (since: string | undefined, prefix: string) => eventCountsSince(app, since, prefix);

  /** 1,000 account records; rows 100, 200, ..., 1000 are bad, in the DTO or in the service's rules. */
  const accounts = () =>
    Array.from({ length: 1000 }, (_, i) => {
      const row = i + 1;
      const good = {
        external_id: `ACC-${row}`,
        name: `Imported account ${row}`,
        email: `buyer${row}@import.example`,
        credit_limit: row * 10.5,
        metadata: { legacy: `L${row}` },
      };
      if (row % 100 !== 0) return row % 3 === 0 ? { ...good, currency: 'eur' } : good;
      const bad = [
        { external_id: `ACC-${row}` },
        { ...good, name: 42 },
        { ...good, email: 'not-an-email' },
        { ...good, currency: 'dollars' },
        { ...good, credit_limit: -5 },
        { ...good, credit_limit: 1.23456 },
        { ...good, addresses: [{ type: 'billing', line1: '1 Main St', city: 'X', country: 'US' }] },
        { ...good, payment_terms_id: UNKNOWN_UUID },
        { ...good, metadata: 'x' },
        { name: 'no external id' },
      ];
      return bad[row / 100 - 1];
    });

  it('imports 1,000 accounts with 10 bad rows through AccountsService; the same import again creates nothing', async () => {
    const since = await lastEventId(app);
    const done = await runImport('accounts', accounts());
    expect(done).toMatchObject({
      resource: 'accounts',
      status: 'completed_with_errors',
      total: 1000,
      processed: 1000,
      succeeded: 990,
      failed: 10,
    });
    const imported = async () => (await accountNames(app, 'Imported account ')).length;
    expect(await imported()).toBe(990);

    const errors = await errorsOf(done.id);
    expect(errors.map((e: { row: number }) => e.row)).toEqual([
      100, 200, 300, 400, 500, 600, 700, 800, 900, 1000,
    ]);
    expect(errors.map((e: { external_id: string | null }) => e.external_id)).toEqual([
      'ACC-100',
      'ACC-200',
      'ACC-300',
      'ACC-400',
      'ACC-500',
      'ACC-600',
      'ACC-700',
      'ACC-800',
      'ACC-900',
      null,
    ]);
    expect(errors[0]).toMatchObject({
      object: 'import_error',
      import_id: done.id,
      error: { type: 'validation_error', code: 'parameter_missing', param: 'name' },
    });
    expect(errors[0].error).toMatchObject({ error: 'parameter_missing', hint: expect.any(String) });
    expect(
      errors.map(
        (e: { error: { code: string; param?: string } }) => `${e.error.code}:${e.error.param ?? ''}`,
      ),
    ).toEqual([
      'parameter_missing:name',
      'parameter_invalid:name',
      'parameter_invalid:email',
      'parameter_invalid:currency',
      'parameter_invalid:credit_limit',
      'parameter_invalid:credit_limit',
      'parameter_unknown:addresses',
      'parameter_invalid:payment_terms_id',
      'parameter_invalid:metadata',
      'parameter_missing:external_id',
    ]);

    // The same rules as POST /accounts: e-mail lower-cased, currency upper-cased, default currency, exact money.
    const mapped = await mappedIds(done.id, 'accounts', accounts().length, 'ACC-');
    const acc3 = (await live.get(`/v1/accounts/${mapped.get('ACC-3')}`).expect(200)).body;
    expect(acc3).toMatchObject({
      object: 'account',
      name: 'Imported account 3',
      email: 'buyer3@import.example',
      currency: 'EUR',
      credit_limit: 31.5,
      metadata: { legacy: 'L3' },
      status: 'active',
    });
    const acc1 = (await live.get(`/v1/accounts/${mapped.get('ACC-1')}`).expect(200)).body;
    expect(acc1).toMatchObject({ name: 'Imported account 1', currency: 'USD' });

    // One account.created per account, carrying the account as the REST route would return it.
    expect(await eventCounts(since, 'account.')).toEqual([{ type: 'account.created', n: 990 }]);
    const [event] = (await outbox(app).eventsOf(acc3.id)).filter((e) => e.type === 'account.created');
    expect(event.data.object).toEqual(acc3);

    const again = await runImport('accounts', accounts());
    expect(again).toMatchObject({ status: 'completed_with_errors', succeeded: 990, failed: 10 });
    expect(await imported()).toBe(990);
    expect(await eventCounts(since, 'account.')).toEqual([{ type: 'account.created', n: 990 }]);
    expect((await mappedIds(again.id, 'accounts', accounts().length, 'ACC-')).size).toBe(990);

    // A changed record updates the mapped account through the service.
    const changed = await runImport('accounts', [
      { external_id: 'ACC-3', name: 'Imported account 3', credit_limit: 99 },
    ]);
    expect(changed).toMatchObject({ status: 'completed', succeeded: 1 });
    expect((await live.get(`/v1/accounts/${acc3.id}`).expect(200)).body.credit_limit).toBe(99);
    expect(await eventCounts(since, 'account.')).toEqual([
      { type: 'account.created', n: 990 },
      { type: 'account.credit_limit.updated', n: 1 },
      { type: 'account.updated', n: 1 },
    ]);
  });

  it('applies repeats of an external id within one batch in row order (bulk create, then update)', async () => {
    const since = await lastEventId(app);
    const done = await runImport('accounts', [
      { external_id: 'DUP-1', name: 'Repeated first', currency: 'USD' },
      { external_id: 'DUP-2', name: 'Other' },
      { external_id: 'DUP-1', name: 'Repeated second' },
    ]);
    expect(done).toMatchObject({ status: 'completed', succeeded: 3, failed: 0 });
    expect(await accountNames(app, 'Repeated ')).toEqual(['Repeated second']);
    expect(await eventCounts(since, 'account.')).toEqual([
      { type: 'account.created', n: 2 },
      { type: 'account.updated', n: 1 },
    ]);
  });

  it('imports products with variants through ProductsService: SKU and category rules are row errors', async () => {
    const since = await lastEventId(app);
    const taken = (await live.get('/v1/products?limit=1').expect(200)).body.data[0].sku as string;
    const records = [
      {
        external_id: 'P-1',
        sku: 'IMP-1',
        name: 'Imported one',
        list_price: 19.99,
        variants: [{ sku: 'IMP-1-RED', name: 'Red', options: { color: 'red' }, list_price: 21 }],
      },
      { external_id: 'P-2', sku: 'IMP-2', name: 'Imported two', type: 'service', currency: 'EUR' },
      { external_id: 'P-3', sku: taken, name: 'Clashes with the seed' },
      { external_id: 'P-4', sku: 'IMP-1', name: 'Clashes with row 1' },
      { external_id: 'P-5', sku: 'IMP-5', name: 'Unknown category', category_id: UNKNOWN_UUID },
      {
        external_id: 'P-6',
        sku: 'IMP-6',
        name: 'Variant repeats the product',
        variants: [{ sku: 'IMP-6', name: 'same' }],
      },
      { external_id: 'P-7', name: 'No SKU' },
      { external_id: 'P-8', sku: 'IMP-8', name: 'Eight', list_price: 5 },
    ];
    const done = await runImport('products', records);
    expect(done).toMatchObject({ status: 'completed_with_errors', total: 8, succeeded: 3, failed: 5 });
    expect(await rowErrors(done.id)).toEqual([
      [3, 'P-3', 'duplicate_sku', 'sku'],
      [4, 'P-4', 'duplicate_sku', 'sku'],
      [5, 'P-5', 'parameter_invalid', 'category_id'],
      [6, 'P-6', 'duplicate_sku', 'variants[0].sku'],
      [7, 'P-7', 'parameter_missing', 'sku'],
    ]);
    const list = (await live.get('/v1/products?sku=IMP-1').expect(200)).body.data;
    expect(list).toHaveLength(1);
    const product = (await live.get(`/v1/products/${list[0].id}`).expect(200)).body;
    expect(product).toMatchObject({
      sku: 'IMP-1',
      name: 'Imported one',
      list_price: 19.99,
      status: 'active',
      variants: [{ sku: 'IMP-1-RED', options: { color: 'red' }, list_price: 21 }],
    });
    expect(await eventCounts(since, 'product.')).toEqual([{ type: 'product.created', n: 3 }]);
    const [event] = (await outbox(app).eventsOf(product.id)).filter((e) => e.type === 'product.created');
    expect(event.data.object).toEqual(product);

    // Again, with P-8 changed: nothing new, P-8 updated through the service.
    const again = await runImport(
      'products',
      records.map((r) => (r.external_id === 'P-8' ? { ...r, list_price: 6 } : r)),
    );
    expect(again).toMatchObject({ succeeded: 3, failed: 5 });
    expect(await productSkus(app, 'IMP-')).toHaveLength(3);
    expect(await variantSkus(app, 'IMP-')).toHaveLength(1);
    expect(await eventCounts(since, 'product.')).toEqual([
      { type: 'product.created', n: 3 },
      { type: 'product.updated', n: 1 },
    ]);
  });

  it("checks a product import's SKUs against its own entity and mode only", async () => {
    const suffix = Date.now();
    const otherEntity = api(app, app.seed.entities.secondary.keys.live);
    const testMode = api(app, app.seed.entities.primary.keys.test);
    await otherEntity
      .post('/v1/products')
      .send({ sku: `ISO-E-${suffix}`, name: 'Held by another entity' })
      .expect(201);
    await testMode
      .post('/v1/products')
      .send({ sku: `ISO-T-${suffix}`, name: 'Held in test mode' })
      .expect(201);
    const done = await runImport('products', [
      { external_id: `ISO-E-${suffix}`, sku: `ISO-E-${suffix}`, name: 'Same SKU, other entity' },
      { external_id: `ISO-T-${suffix}`, sku: `ISO-T-${suffix}`, name: 'Same SKU, other mode' },
    ]);
    expect(done).toMatchObject({ status: 'completed', total: 2, succeeded: 2, failed: 0 });
    expect(await rowErrors(done.id)).toEqual([]);
    for (const sku of [`ISO-E-${suffix}`, `ISO-T-${suffix}`]) {
      const list = (await live.get(`/v1/products?sku=${sku}`).expect(200)).body.data as { name: string }[];
      expect(list.map((p) => p.name)).toEqual([
        sku.startsWith('ISO-E') ? 'Same SKU, other entity' : 'Same SKU, other mode',
      ]);
    }
  });

  describe('journal entries', () => {
    let fx: LedgerFixtures;
    let date: string;
    beforeAll(() => {
      fx = ledgerFixtures(app);
      date = fx.openPeriod.start_date;
    });
    const lines = (debit: number, credit: number) => [
      { account_id: fx.accounts.expense, debit_amount: debit, description: 'imported' },
      { account_id: fx.accounts.cash, credit_amount: credit },
    ];
    /** The imported entries, by description. */
    const importedEntries = async () =>
      (await allJournalEntries(live))
        .filter((e) => String(e.description).startsWith('Imported JE'))
        .sort((a, b) => String(a.description).localeCompare(String(b.description)));
    const entryCount = async () => (await importedEntries()).length;

    it('posts balanced entries through JournalEntriesService; unbalanced rows are unbalanced_entry row errors', async () => {
      const since = await lastEventId(app);
      const before = await trialBalance(app, entityId);
      const records = [
        { external_id: 'JE-1', entry_date: date, description: 'Imported JE 1', lines: lines(100, 100) },
        { external_id: 'JE-2', entry_date: date, description: 'Imported JE 2', lines: lines(50.25, 50) },
        {
          external_id: 'JE-3',
          entry_date: date,
          description: 'Imported JE 3',
          lines: lines(12.3456, 12.3456),
        },
        {
          external_id: 'JE-4',
          entry_date: fx.closedPeriod.start_date,
          description: 'Imported JE 4',
          lines: lines(1, 1),
        },
        {
          external_id: 'JE-5',
          entry_date: date,
          description: 'Imported JE 5',
          lines: [{ account_id: fx.accounts.cash, debit_amount: 1 }],
        },
        {
          external_id: 'JE-6',
          entry_date: date,
          description: 'Imported JE 6',
          status: 'draft',
          lines: lines(7, 7),
        },
      ];
      const done = await runImport('journal_entries', records);
      expect(done).toMatchObject({ status: 'completed_with_errors', total: 6, succeeded: 3, failed: 3 });
      expect(await rowErrors(done.id)).toEqual([
        [2, 'JE-2', 'unbalanced_entry', 'lines'],
        [4, 'JE-4', 'period_closed', 'entry_date'],
        [5, 'JE-5', 'parameter_invalid', 'lines'],
      ]);
      expect(await entryCount()).toBe(3);
      const posted = await importedEntries();
      expect(posted.map((r) => [r.status, r.total_debit])).toEqual([
        ['posted', 100],
        ['posted', 12.3456],
        ['draft', 7],
      ]);
      expect(posted.every((r) => /-JE-\d{6}$/.test(r.entry_number))).toBe(true);
      expect(await trialBalance(app, entityId)).toBe(before);
      expect(await eventCounts(since, 'accounting.journal_entry.')).toEqual([
        { type: 'accounting.journal_entry.created', n: 1 },
        { type: 'accounting.journal_entry.posted', n: 2 },
      ]);

      // The same import again: posted entries unchanged are no-ops; the draft is updated and posted.
      const again = await runImport(
        'journal_entries',
        records.map((r) => (r.external_id === 'JE-6' ? { ...r, status: 'posted' } : r)),
      );
      expect(again).toMatchObject({ succeeded: 3, failed: 3 });
      expect(await entryCount()).toBe(3);
      expect(await eventCounts(since, 'accounting.journal_entry.')).toEqual([
        { type: 'accounting.journal_entry.created', n: 1 },
        { type: 'accounting.journal_entry.posted', n: 3 },
      ]);

      // A posted entry is immutable: different content is invalid_state, nothing changes.
      const changed = await runImport('journal_entries', [
        { external_id: 'JE-1', entry_date: date, description: 'Imported JE 1', lines: lines(101, 101) },
      ]);
      expect(changed).toMatchObject({ status: 'completed_with_errors', succeeded: 0, failed: 1 });
      const [error] = await errorsOf(changed.id);
      expect(error).toMatchObject({
        row: 1,
        external_id: 'JE-1',
        error: { type: 'conflict', code: 'invalid_state', status: 'posted' },
      });
      expect(error.error.hint).toEqual(expect.stringContaining("status 'posted'"));
      const je1 = (await importedEntries()).filter((e) => e.description === 'Imported JE 1');
      expect(je1.map((e) => e.total_debit)).toEqual([100]);
      expect(await trialBalance(app, entityId)).toBe(before);
    });

    it('creates a batch of new entries together: gapless numbers in row order, one event each, bad rows reported by line', async () => {
      const since = await lastEventId(app);
      const before = await trialBalance(app, entityId);
      await live.patch('/v1/accounting/settings').send({ approval_threshold: 1000 }).expect(200);
      try {
        const records = Array.from({ length: 40 }, (_, i) => {
          const row = i + 1;
          const good = {
            external_id: `JEB-${row}`,
            entry_date: row % 2 ? fx.openPeriod.start_date : fx.openPeriod.end_date,
            description: `Bulk JE ${String(row).padStart(2, '0')}`,
            lines: row === 25 ? lines(5000, 5000) : lines(row, row),
          };
          if (row === 10) return { ...good, lines: lines(10, 9) };
          if (row === 20) return { ...good, entry_date: fx.closedPeriod.start_date };
          if (row === 30)
            return {
              ...good,
              lines: [...lines(30, 30).slice(0, 1), { account_id: UNKNOWN_UUID, credit_amount: 30 }],
            };
          if (row === 35) return { ...good, status: 'draft' };
          return good;
        });
        // The batch must go through the bulk path, none of it one by one.
        const {
          result: done,
          bulkSizes,
          upserts,
        } = await watchImporter(worker, 'journal_entries', () => runImport('journal_entries', records));
        expect(bulkSizes).toEqual([40]);
        expect(upserts).toBe(0);
        expect(done).toMatchObject({ status: 'completed_with_errors', total: 40, succeeded: 37, failed: 3 });
        expect(await rowErrors(done.id)).toEqual([
          [10, 'JEB-10', 'unbalanced_entry', 'lines'],
          [20, 'JEB-20', 'period_closed', 'entry_date'],
          [30, 'JEB-30', 'parameter_invalid', 'lines[1].account_id'],
        ]);

        const bulk = async () =>
          (await allJournalEntries(live))
            .filter((e) => String(e.description).startsWith('Bulk JE '))
            .sort((a, b) => String(a.description).localeCompare(String(b.description)));
        const entries = await bulk();
        expect(entries.map((e) => Number(String(e.description).slice(8)))).toEqual(
          Array.from({ length: 40 }, (_, i) => i + 1).filter((row) => ![10, 20, 30].includes(row)),
        );
        // Numbers follow the rows with no gap (the refused rows took none).
        const numbers = entries.map((e) => Number(/(\d+)$/.exec(e.entry_number)![1]));
        expect(numbers).toEqual(numbers.map((_, i) => numbers[0] + i));
        const byRow = new Map(entries.map((e) => [Number(String(e.description).slice(8)), e]));
        expect([byRow.get(25)!.status, byRow.get(25)!.approval_status]).toEqual([
          'pending_approval',
          'pending_approval',
        ]);
        expect(byRow.get(35)!.status).toBe('draft');
        expect(byRow.get(1)!.status).toBe('posted');
        expect(byRow.get(2)!.entry_date).toBe(fx.openPeriod.end_date);
        // Drafts and pending entries stay out of the ledger; the posted ones balance.
        expect(await trialBalance(app, entityId)).toBe(before);

        // One event per entry, carrying its number.
        const events = (await eventsSince(app, since)).filter((e) =>
          e.type.startsWith('accounting.journal_entry.'),
        );
        expect(await eventCounts(since, 'accounting.journal_entry.')).toEqual([
          { type: 'accounting.journal_entry.created', n: 2 },
          { type: 'accounting.journal_entry.posted', n: 35 },
        ]);
        expect(new Map(events.map((e) => [e.data.object.id, e.data.object.entry_number]))).toEqual(
          new Map(entries.map((e) => [e.id, e.entry_number])),
        );

        // The same import again creates nothing and emits nothing.
        const again = await runImport('journal_entries', records);
        expect(again).toMatchObject({ succeeded: 37, failed: 3 });
        expect((await bulk()).map((e) => e.id)).toEqual(entries.map((e) => e.id));
        expect(await eventCounts(since, 'accounting.journal_entry.')).toEqual([
          { type: 'accounting.journal_entry.created', n: 2 },
          { type: 'accounting.journal_entry.posted', n: 35 },
        ]);
      } finally {
        await live.patch('/v1/accounting/settings').send({ approval_threshold: null }).expect(200);
      }
    });
  });
});
