import Decimal from 'decimal.js';
import { money } from '#platform/domain/money';

/** Unit amounts and line amounts keep 4 decimals; currency totals of the order 2. */
export const UNIT_PLACES = 4;
export const TOTAL_PLACES = 2;

export interface LineAmountsInput {
  quantity: Decimal.Value;
  unitPrice: Decimal.Value;
  /** Percent off the line's subtotal, 0..100. */
  discountPercent?: Decimal.Value;
  /** A fixed amount off the line (after the percentage), never more than what is left. */
  discountAmount?: Decimal.Value;
  /** Tax percent on the discounted amount. */
  taxRate?: Decimal.Value;
}

export interface LineAmounts {
  subtotal: Decimal;
  discountTotal: Decimal;
  taxTotal: Decimal;
  total: Decimal;
}

const round = (value: Decimal, places: number) => value.toDecimalPlaces(places, Decimal.ROUND_HALF_UP);

/**
 * One line, exactly: subtotal = quantity × unit price; discount = subtotal × percent / 100 +
 * amount (capped at the subtotal); tax = (subtotal − discount) × rate / 100; each rounded half-up
 * to 4 decimals. total = subtotal − discount + tax.
 */
export function lineAmounts(input: LineAmountsInput): LineAmounts {
  const subtotal = round(money(input.quantity).mul(money(input.unitPrice)), UNIT_PLACES);
  let discount = round(subtotal.mul(money(input.discountPercent ?? 0)).div(100), UNIT_PLACES).plus(
    money(input.discountAmount ?? 0),
  );
  if (discount.gt(subtotal)) discount = subtotal;
  const taxable = subtotal.minus(discount);
  const tax = round(taxable.mul(money(input.taxRate ?? 0)).div(100), UNIT_PLACES);
  return { subtotal, discountTotal: discount, taxTotal: tax, total: taxable.plus(tax) };
}

export interface OrderTotals {
  subtotal: Decimal;
  discountTotal: Decimal;
  taxTotal: Decimal;
  total: Decimal;
}

/**
 * The order's currency totals: each sum of the exact line amounts rounded half-up to 2
 * decimals, and total = subtotal − discount_total + tax_total so the three always add up.
 */
export function orderTotals(lines: readonly LineAmounts[]): OrderTotals {
  const sum = (pick: (l: LineAmounts) => Decimal) => lines.reduce((acc, l) => acc.plus(pick(l)), money(0));
  return totalsOfSums({
    subtotal: sum((l) => l.subtotal),
    discountTotal: sum((l) => l.discountTotal),
    taxTotal: sum((l) => l.taxTotal),
  });
}

/** orderTotals() from the exact sums of the line amounts (summed elsewhere, e.g. by the database). */
export function totalsOfSums(sums: {
  subtotal: Decimal.Value;
  discountTotal: Decimal.Value;
  taxTotal: Decimal.Value;
}): OrderTotals {
  const subtotal = round(money(sums.subtotal), TOTAL_PLACES);
  const discountTotal = round(money(sums.discountTotal), TOTAL_PLACES);
  const taxTotal = round(money(sums.taxTotal), TOTAL_PLACES);
  return { subtotal, discountTotal, taxTotal, total: subtotal.minus(discountTotal).plus(taxTotal) };
}
