import fc from 'fast-check';
import { money } from '#platform/domain/money';
import { addMonths, businessDay, latestBusinessDay, nextOccurrence, wholeMonthsBetween } from './calendar';
import { depreciationDue, maxRecoverable, netBookValue } from './fixed-asset';
import {
  EntryContent,
  isBalanced,
  lineProblem,
  needsApproval,
  sameEntryContent,
  swapSides,
} from './journal-entry';
import { normalBalanceOf, rolesWithFallbacks } from './ledger';
import { SOURCE_TYPES } from './source-types';

const line = (debit: string, credit: string) => ({ debit: money(debit), credit: money(credit) });

describe('journal entry rules', () => {
  it('balances with exact decimals, never with float tolerance', () => {
    expect(isBalanced([line('0.1', '0'), line('0.2', '0'), line('0', '0.3')])).toBe(true);
    expect(isBalanced([line('100.0001', '0'), line('0', '100')])).toBe(false);
  });

  it('refuses lines without exactly one positive side or with more than 4 decimals', () => {
    expect(lineProblem(line('0', '0'), 0)?.field).toBe('debit_amount');
    expect(lineProblem(line('1', '1'), 2)).toMatchObject({ index: 2, field: 'credit_amount' });
    expect(lineProblem(line('1.00001', '0'), 0)?.reason).toMatch(/decimal/);
    expect(lineProblem(line('-1', '0'), 0)?.reason).toMatch(/negative/);
    expect(lineProblem(line('5', '0'), 0)).toBeNull();
  });

  it('keeps any balanced set balanced when sides are swapped', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 10_000_000 }), { minLength: 1, maxLength: 10 }),
        (cents) => {
          const debits = cents.map((c) => line(money(c).dividedBy(10000).toFixed(4), '0'));
          const total = debits.reduce((s, l) => s.plus(l.debit), money(0));
          const lines = [...debits, line('0', total.toFixed(4))];
          return (
            isBalanced(lines) &&
            isBalanced(swapSides(lines)) &&
            swapSides(lines)[0].credit.equals(lines[0].debit)
          );
        },
      ),
    );
  });

  it('applies the approval threshold to manual entries only, strictly above it', () => {
    expect(needsApproval(money(1000), money(1000), true)).toBe(false);
    expect(needsApproval(money('1000.01'), money(1000), true)).toBe(true);
    expect(needsApproval(money(5000), money(1000), false)).toBe(false);
    expect(needsApproval(money(5000), null, true)).toBe(false);
  });

  it('knows the source types and normal balances', () => {
    expect(SOURCE_TYPES).toHaveLength(85);
    expect(normalBalanceOf('asset')).toBe('debit');
    expect(normalBalanceOf('expense')).toBe('debit');
    expect(normalBalanceOf('liability')).toBe('credit');
    expect(normalBalanceOf('equity')).toBe('credit');
    expect(normalBalanceOf('revenue')).toBe('credit');
  });

  it('reads each role of a posting with its fallback role, once', () => {
    expect(
      rolesWithFallbacks(['unbilled_receivables', 'revenue', 'channel_clearing', 'receivables']).sort(),
    ).toEqual(['channel_clearing', 'receivables', 'revenue', 'unbilled_receivables']);
    expect(rolesWithFallbacks(['inventory'])).toEqual(['inventory']);
    expect(rolesWithFallbacks([])).toEqual([]);
  });
});

describe('calendar', () => {
  it('knows the latest business day any entity can be in', () => {
    // 10:30 UTC is already the next day at UTC+14 (and still the same day at UTC-12).
    const morning = new Date('2026-03-01T10:30:00Z');
    expect(latestBusinessDay(morning)).toBe('2026-03-02');
    expect(businessDay('Etc/GMT+12', morning)).toBe('2026-02-28');
    // 09:59 UTC is not yet the next day anywhere.
    expect(latestBusinessDay(new Date('2026-03-01T09:59:00Z'))).toBe('2026-03-01');
    for (const zone of [
      'UTC',
      'Asia/Tokyo',
      'Pacific/Auckland',
      'America/Los_Angeles',
      'Pacific/Tongatapu',
    ]) {
      expect(businessDay(zone, morning) <= latestBusinessDay(morning)).toBe(true);
    }
  });

  it('clamps months', () => {
    expect(addMonths('2026-01-31', 1)).toBe('2026-02-28');
    expect(nextOccurrence('2026-12-31', 'quarterly')).toBe('2027-03-31');
    expect(nextOccurrence('2026-12-31', 'weekly')).toBe('2027-01-07');
    expect(nextOccurrence('2026-02-28', 'yearly')).toBe('2027-02-28');
    expect(wholeMonthsBetween('2026-01-15', '2026-02-14')).toBe(0);
    expect(wholeMonthsBetween('2026-01-15', '2026-02-15')).toBe(1);
  });

  it('keeps a monthly schedule on its anchor day, clamped per month (month-end stays month-end)', () => {
    const runs = ['2026-01-31'];
    for (let i = 0; i < 4; i++) runs.push(nextOccurrence(runs[runs.length - 1], 'monthly', 31));
    expect(runs).toEqual(['2026-01-31', '2026-02-28', '2026-03-31', '2026-04-30', '2026-05-31']);
    // A leap year's February, and an anchor below every month's length, which never moves.
    expect(nextOccurrence('2028-01-31', 'monthly', 31)).toBe('2028-02-29');
    expect(nextOccurrence('2026-02-28', 'monthly', 30)).toBe('2026-03-30');
    expect(nextOccurrence('2026-01-15', 'monthly', 15)).toBe('2026-02-15');
    // Quarterly and yearly keep the anchor too; without one, the date's own day is the anchor.
    expect(nextOccurrence('2026-02-28', 'quarterly', 31)).toBe('2026-05-31');
    expect(nextOccurrence('2028-02-29', 'yearly', 29)).toBe('2029-02-28');
    expect(nextOccurrence('2029-02-28', 'yearly', 29)).toBe('2030-02-28');
    expect(nextOccurrence('2026-02-28', 'monthly')).toBe('2026-03-28');
  });

  it('computes the business day in the entity time zone', () => {
    const instant = new Date('2026-11-21T23:30:00Z');
    expect(businessDay('UTC', instant)).toBe('2026-11-21');
    expect(businessDay('Asia/Tokyo', instant)).toBe('2026-11-22');
    expect(businessDay('America/Los_Angeles', instant)).toBe('2026-11-21');
  });
});

describe('fixed asset arithmetic', () => {
  const book = {
    cost: money(1000),
    salvageValue: money(100),
    usefulLifeMonths: 7,
    acquisitionDate: '2026-01-01',
    accumulatedDepreciation: money(0),
    monthsDepreciated: 0,
    totalImpaired: money(0),
    totalRecovered: money(0),
    revaluationTotal: money(0),
  };

  it('depreciates straight-line by whole months, the last month taking the remainder', () => {
    const first = depreciationDue(book, '2026-03-01');
    expect(first.months).toBe(2);
    expect(first.amount.toFixed(4)).toBe('257.1428');
    const all = depreciationDue(book, '2030-01-01');
    expect(all.months).toBe(7);
    expect(all.amount.toFixed(4)).toBe('900.0000');
  });

  it('never depreciates below salvage after an impairment, and caps recoveries', () => {
    const impaired = { ...book, totalImpaired: money(850) };
    expect(depreciationDue(impaired, '2030-01-01').amount.toFixed(4)).toBe('50.0000');
    expect(netBookValue(impaired).toFixed()).toBe('150');
    expect(maxRecoverable({ totalImpaired: money(850), totalRecovered: money(200) }).toFixed()).toBe('650');
  });
});

describe('re-imported journal entries', () => {
  const entry = (over: Partial<EntryContent> = {}): EntryContent => ({
    entryDate: '2026-11-02',
    description: 'Rent',
    entryType: 'manual',
    sourceType: 'MANUAL',
    lines: [
      { accountId: 'a', debit: money('100.5'), credit: money('0') },
      { accountId: 'b', debit: money('0'), credit: money('100.50'), description: null },
    ],
    ...over,
  });

  it('is the same content when only the representation differs (decimals, null vs absent)', () => {
    expect(sameEntryContent(entry(), entry())).toBe(true);
    expect(
      sameEntryContent(
        entry(),
        entry({ lines: entry().lines.map((l) => ({ ...l, description: undefined, projectId: null })) }),
      ),
    ).toBe(true);
  });

  it('differs on any date, text, amount, account, dimension or line order change', () => {
    expect(sameEntryContent(entry(), entry({ entryDate: '2026-11-03' }))).toBe(false);
    expect(sameEntryContent(entry(), entry({ description: null }))).toBe(false);
    expect(sameEntryContent(entry(), entry({ sourceType: 'ADJUSTMENT' }))).toBe(false);
    const [first, second] = entry().lines;
    expect(
      sameEntryContent(entry(), entry({ lines: [{ ...first, debit: money('100.5001') }, second] })),
    ).toBe(false);
    expect(sameEntryContent(entry(), entry({ lines: [{ ...first, accountId: 'c' }, second] }))).toBe(false);
    expect(sameEntryContent(entry(), entry({ lines: [{ ...first, locationId: 'l' }, second] }))).toBe(false);
    expect(sameEntryContent(entry(), entry({ lines: [second, first] }))).toBe(false);
  });
});
