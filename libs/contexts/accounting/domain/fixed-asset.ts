import Decimal from 'decimal.js';
import { money } from '#platform/domain/money';
import { wholeMonthsBetween } from './calendar';

export interface AssetBook {
  cost: Decimal;
  salvageValue: Decimal;
  usefulLifeMonths: number;
  acquisitionDate: string;
  accumulatedDepreciation: Decimal;
  monthsDepreciated: number;
  totalImpaired: Decimal;
  totalRecovered: Decimal;
  revaluationTotal: Decimal;
}

/** Cost plus revaluations, less depreciation and net impairment. */
export function netBookValue(a: AssetBook): Decimal {
  return a.cost
    .plus(a.revaluationTotal)
    .minus(a.accumulatedDepreciation)
    .minus(a.totalImpaired)
    .plus(a.totalRecovered);
}

/** Recoveries are capped by what was impaired and not yet recovered. */
export const maxRecoverable = (a: Pick<AssetBook, 'totalImpaired' | 'totalRecovered'>): Decimal =>
  a.totalImpaired.minus(a.totalRecovered);

/**
 * Straight-line depreciation for the whole months elapsed up to `throughDate` that were not
 * depreciated yet. The monthly charge spreads (cost - salvage) over the useful life; the last
 * month takes the rounding remainder, and the charge never takes the book value below salvage.
 */
export function depreciationDue(a: AssetBook, throughDate: string): { months: number; amount: Decimal } {
  const elapsed = Math.min(wholeMonthsBetween(a.acquisitionDate, throughDate), a.usefulLifeMonths);
  const months = elapsed - a.monthsDepreciated;
  if (months <= 0) return { months: 0, amount: money(0) };
  const base = a.cost.minus(a.salvageValue);
  const monthly = base.dividedBy(a.usefulLifeMonths).toDecimalPlaces(4, Decimal.ROUND_DOWN);
  let amount = elapsed === a.usefulLifeMonths ? base.minus(a.accumulatedDepreciation) : monthly.times(months);
  const headroom = Decimal.max(netBookValue(a).minus(a.salvageValue), 0);
  if (amount.greaterThan(headroom)) amount = headroom;
  return { months, amount: Decimal.max(amount, 0) };
}
