import Decimal from 'decimal.js';
import { addDays } from '#platform/tenancy/business-day';
import { DemandByKind, DemandMovement, emptyDemand, sumDemand, totalDemand } from './demand';

export const DEMAND_WINDOWS = [30, 90, 180, 365] as const;
export type DemandWindow = (typeof DEMAND_WINDOWS)[number];
/** The reorder report's window when `demand_window` is absent. */
export const DEFAULT_DEMAND_WINDOW: DemandWindow = 90;

/**
 * Weights of the blend: recent demand counts most, the year smooths seasonality.
 * blended_daily = 0.4·run_rate_30 + 0.3·run_rate_90 + 0.2·run_rate_180 + 0.1·run_rate_365.
 */
export const BLEND_WEIGHTS: Record<DemandWindow, string> = { 30: '0.4', 90: '0.3', 180: '0.2', 365: '0.1' };

/**
 * First day of the trailing window of `window` days that ends on (and includes) `businessDay`:
 * a 30-day window ending 2026-11-23 runs 2026-10-25 .. 2026-11-23.
 */
export const windowStart = (businessDay: string, window: number): string => addDays(businessDay, 1 - window);

/** Is `day` inside the trailing window ending on `businessDay`? (Days after it are not.) */
export const inWindow = (day: string, businessDay: string, window: number): boolean =>
  day >= windowStart(businessDay, window) && day <= businessDay;

/** Units per day, 4 decimal places (half up). */
export const rate = (units: number, window: number): Decimal =>
  new Decimal(units).div(window).toDecimalPlaces(4, Decimal.ROUND_HALF_UP);

export type WindowSums = Record<DemandWindow, DemandByKind>;

/** Demand by kind per window, from per-day sums (what the aggregate table holds). */
export function windowSums(
  days: readonly { day: string; demand: DemandByKind }[],
  businessDay: string,
): WindowSums {
  const sums = {} as WindowSums;
  for (const w of DEMAND_WINDOWS) {
    const acc = emptyDemand();
    for (const d of days) {
      if (!inWindow(d.day, businessDay, w)) continue;
      acc.sale += d.demand.sale;
      acc.component += d.demand.component;
      acc.build += d.demand.build;
    }
    sums[w] = acc;
  }
  return sums;
}

export interface RunRates {
  run_rate_30: Decimal;
  run_rate_90: Decimal;
  run_rate_180: Decimal;
  run_rate_365: Decimal;
  blended_daily: Decimal;
}

export function runRates(sums: WindowSums): RunRates {
  const r = (w: DemandWindow) => rate(totalDemand(sums[w]), w);
  const rates = { 30: r(30), 90: r(90), 180: r(180), 365: r(365) } as Record<DemandWindow, Decimal>;
  const blended = DEMAND_WINDOWS.reduce(
    (acc, w) => acc.plus(rates[w].times(BLEND_WEIGHTS[w])),
    new Decimal(0),
  ).toDecimalPlaces(4, Decimal.ROUND_HALF_UP);
  return {
    run_rate_30: rates[30],
    run_rate_90: rates[90],
    run_rate_180: rates[180],
    run_rate_365: rates[365],
    blended_daily: blended,
  };
}

/** Run rates straight from ledger rows (the reference the per-day aggregates must agree with). */
export function runRatesOfMovements(rows: readonly DemandMovement[], businessDay: string): RunRates {
  const byDay = new Map<string, DemandMovement[]>();
  for (const row of rows) byDay.set(row.day, [...(byDay.get(row.day) ?? []), row]);
  return runRates(
    windowSums(
      [...byDay].map(([day, dayRows]) => ({ day, demand: sumDemand(dayRows) })),
      businessDay,
    ),
  );
}
