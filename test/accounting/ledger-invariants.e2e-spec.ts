import fc from 'fast-check';
import { api } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';
import {
  entriesDisagreeingWithLines,
  ledgerFixtures,
  LedgerFixtures,
  trialBalance,
} from './support/accounting-fixtures';

type Step =
  | { kind: 'entry'; amounts: number[]; skew: number }
  | { kind: 'reverse'; pick: number }
  | { kind: 'recurring' };

describe('ledger invariants (property-based)', () => {
  let app: TestApp;
  let live: ReturnType<typeof api>;
  let fx: LedgerFixtures;

  beforeAll(async () => {
    app = await startTestApp();
    live = api(app, app.seed.entities.primary.keys.live);
    fx = ledgerFixtures(app);
  });
  afterAll(() => app.close());

  const cents = fc.integer({ min: 1, max: 100_000_000 }).map((c) => c / 10_000);
  const step: fc.Arbitrary<Step> = fc.oneof(
    fc.record({
      kind: fc.constant('entry' as const),
      amounts: fc.array(cents, { minLength: 1, maxLength: 4 }),
      skew: fc.constantFrom(0, 0, 0.0001, -0.01),
    }),
    fc.record({ kind: fc.constant('reverse' as const), pick: fc.nat() }),
    fc.constant({ kind: 'recurring' as const }),
  );

  it('keeps every trial balance at exactly zero and never stores an unbalanced entry', async () => {
    const accounts = [fx.accounts.cash, fx.accounts.expense, fx.accounts.revenue, fx.accounts.inventory];
    const posted: string[] = [];
    const template = app.seed.fixtures.recurring_journal_entry_id as string;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 6 }), async (steps) => {
        /** Entries answered otherwise than balanced → 201, skewed → 400 or 422. */
        const wrong: { skew: number; status: number }[] = [];
        for (const s of steps) {
          if (s.kind === 'entry') {
            const debitLines = s.amounts.map((a, i) => ({
              account_id: accounts[i % accounts.length],
              debit_amount: a,
            }));
            const total = s.amounts.reduce((sum, a) => sum + Math.round(a * 10_000), 0) / 10_000;
            const credit = Math.round((total + s.skew) * 10_000) / 10_000;
            const res = await live.post('/v1/journal-entries').send({
              entry_date: fx.openPeriod.start_date,
              lines: [...debitLines, { account_id: fx.accounts.payables, credit_amount: credit }],
            });
            // Balanced: posted; skewed: refused.
            if (!(s.skew === 0 ? [201] : [400, 422]).includes(res.status))
              wrong.push({ skew: s.skew, status: res.status });
            if (res.status === 201) posted.push(res.body.id);
          } else if (s.kind === 'reverse' && posted.length > 0) {
            const id = posted.splice(s.pick % posted.length, 1)[0];
            await live.post(`/v1/journal-entries/${id}/reverse`).send({}).expect(200);
          } else if (s.kind === 'recurring') {
            await live.post(`/v1/recurring-journal-entries/${template}/run`).expect(200);
          }
          for (const [entity, mode] of [
            [app.seed.entities.primary.id, true],
            [app.seed.entities.primary.id, false],
            [app.seed.entities.secondary.id, true],
          ] as const) {
            expect(await trialBalance(app, entity, mode)).toBe('0.0000');
            expect(await entriesDisagreeingWithLines(app, entity, mode)).toBe(0);
          }
        }
        expect(wrong).toEqual([]);
      }),
      { numRuns: 12 },
    );
  });
});
