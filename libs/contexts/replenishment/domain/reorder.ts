import Decimal from 'decimal.js';
import { addDays } from '#platform/tenancy/business-day';

/**
 * Reorder point with its provenance:
 * - `manual`: the balance has a reorder point set; it is used as is;
 * - `computed`: ceil(lead_time_days × daily_demand) + safety_stock, in whole units.
 */
export interface ReorderPoint {
  value: number;
  source: 'manual' | 'computed';
  leadTimeDays: number;
  dailyDemand: Decimal;
  safetyStock: number;
}

export function reorderPoint(input: {
  manual: number | null;
  leadTimeDays: number;
  dailyDemand: Decimal;
  safetyStock: number;
}): ReorderPoint {
  const base = {
    leadTimeDays: input.leadTimeDays,
    dailyDemand: input.dailyDemand,
    safetyStock: input.safetyStock,
  };
  if (input.manual !== null) return { ...base, value: input.manual, source: 'manual' };
  const leadTimeDemand = input.dailyDemand.times(input.leadTimeDays).ceil().toNumber();
  return { ...base, value: leadTimeDemand + input.safetyStock, source: 'computed' };
}

/**
 * The last business day the available stock covers at `dailyDemand`:
 * businessDay + floor(available / dailyDemand) days. Null when there is no demand (the stock
 * lasts indefinitely); the business day itself when nothing is available.
 */
export function coverThrough(available: number, dailyDemand: Decimal, businessDay: string): string | null {
  if (dailyDemand.lte(0)) return null;
  if (available <= 0) return businessDay;
  return addDays(businessDay, new Decimal(available).div(dailyDemand).floor().toNumber());
}

/**
 * What to order, in units:
 *   projected = available + on_order (available = on_hand − allocated)
 *   target    = reorder_point + ceil(daily_demand × lead_time_days)
 *   need      = target − projected when projected ≤ reorder_point, else 0
 *   order     = need rounded up to order_multiple, and at least min_order_quantity (itself
 *               rounded up to order_multiple); 0 when need ≤ 0.
 */
export function netSuggestedQty(input: {
  available: number;
  onOrder: number;
  reorderPoint: number;
  dailyDemand: Decimal;
  leadTimeDays: number;
  minOrderQuantity: number;
  orderMultiple: number;
}): number {
  const projected = input.available + input.onOrder;
  if (projected > input.reorderPoint) return 0;
  const target = input.reorderPoint + input.dailyDemand.times(input.leadTimeDays).ceil().toNumber();
  const need = target - projected;
  if (need <= 0) return 0;
  const multiple = Math.max(1, input.orderMultiple);
  const roundUp = (n: number) => Math.ceil(n / multiple) * multiple;
  return Math.max(roundUp(need), roundUp(Math.max(0, input.minOrderQuantity)));
}
