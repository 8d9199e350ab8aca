import { DemandMovement } from './demand';
import { inWindow, runRates, runRatesOfMovements, windowStart, windowSums } from './run-rates';

const shipped = (day: string, quantity: number): DemandMovement => ({
  productId: 'p1',
  locationId: 'l1',
  type: 'fulfillment',
  quantity: -quantity,
  day,
  documentType: 'sales_order',
  lineRole: 'line',
});

describe('run rates', () => {
  const today = '2026-11-23';

  it('uses trailing windows that end on, and include, the business day', () => {
    expect(windowStart(today, 30)).toBe('2026-10-25');
    expect(inWindow('2026-10-25', today, 30)).toBe(true);
    expect(inWindow('2026-10-24', today, 30)).toBe(false);
    expect(inWindow('2026-11-24', today, 30)).toBe(false);
  });

  it('divides each window by its days and blends 0.4/0.3/0.2/0.1', () => {
    const rows = [
      shipped('2026-11-23', 30), // in all four windows
      shipped('2026-09-01', 90), // in 90, 180, 365
      shipped('2026-06-01', 180), // in 180, 365
      shipped('2025-12-01', 365), // in 365 only
      shipped('2025-11-23', 1000), // 366 days back: outside every window
    ];
    const rates = runRatesOfMovements(rows, today);
    expect(rates.run_rate_30.toFixed(4)).toBe('1.0000');
    expect(rates.run_rate_90.toFixed(4)).toBe('1.3333');
    expect(rates.run_rate_180.toFixed(4)).toBe('1.6667');
    expect(rates.run_rate_365.toFixed(4)).toBe('1.8219');
    // 0.4·1 + 0.3·1.3333 + 0.2·1.6667 + 0.1·1.8219 = 1.31552 -> 1.3155
    expect(rates.blended_daily.toFixed(4)).toBe('1.3155');
  });

  it('agrees with the per-day sums the aggregate table keeps', () => {
    const sums = windowSums(
      [
        { day: '2026-11-23', demand: { sale: 20, component: 5, build: 5 } },
        { day: '2026-01-01', demand: { sale: 0, component: 0, build: 365 } },
      ],
      today,
    );
    const rates = runRates(sums);
    expect(rates.run_rate_30.toFixed(4)).toBe('1.0000');
    expect(rates.run_rate_365.toFixed(4)).toBe('1.0822');
  });

  it('is zero without demand', () => {
    const rates = runRatesOfMovements([], today);
    expect(rates.blended_daily.isZero()).toBe(true);
  });
});
