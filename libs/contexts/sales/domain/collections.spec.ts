import { money } from '#platform/domain/money';
import { addDays, dueDateOf, isPastDue, LateFeeTerms, lateFeeAmount, lateFeesDue } from './collections';

const terms = (over: Partial<LateFeeTerms> = {}): LateFeeTerms => ({
  type: 'flat',
  amount: money(25),
  minimum: null,
  graceDays: 0,
  frequency: 'per_invoice',
  periodDays: 30,
  ...over,
});

describe('collections rules', () => {
  it('dates an invoice by its terms and makes it overdue from the day after', () => {
    expect(dueDateOf('2026-01-31', 30)).toBe('2026-03-02');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(isPastDue('2026-03-02', '2026-03-02')).toBe(false);
    expect(isPastDue('2026-03-02', '2026-03-03')).toBe(true);
  });

  it('counts fees after the grace days, once per invoice or once per started period', () => {
    expect(lateFeesDue(terms({ type: 'none' }), '2026-01-01', '2026-06-01')).toBe(0);
    expect(lateFeesDue(terms({ graceDays: 5 }), '2026-01-01', '2026-01-06')).toBe(0);
    expect(lateFeesDue(terms({ graceDays: 5 }), '2026-01-01', '2026-01-07')).toBe(1);
    expect(lateFeesDue(terms(), '2026-01-01', '2026-12-01')).toBe(1);
    const periodic = terms({ frequency: 'per_period', periodDays: 30 });
    expect(lateFeesDue(periodic, '2026-01-01', '2026-01-02')).toBe(1);
    expect(lateFeesDue(periodic, '2026-01-01', '2026-01-31')).toBe(1);
    expect(lateFeesDue(periodic, '2026-01-01', '2026-02-01')).toBe(2);
  });

  it('charges the flat amount or the percent of the amount due, never below the minimum', () => {
    expect(lateFeeAmount(terms(), money(1000)).toFixed(2)).toBe('25.00');
    const percent = terms({ type: 'percent', amount: money('1.5') });
    expect(lateFeeAmount(percent, money('333.33')).toFixed(2)).toBe('5.00');
    expect(lateFeeAmount({ ...percent, minimum: money(10) }, money('333.33')).toFixed(2)).toBe('10.00');
    expect(lateFeeAmount(terms({ type: 'none' }), money(1000)).toFixed(2)).toBe('0.00');
  });
});
