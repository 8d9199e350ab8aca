import Decimal from 'decimal.js';
import { money } from '#platform/persistence/money';

/** The money of one order line. */
export interface LineMoney {
  quantity: number;
  /** Subtotal minus discounts. */
  net: Decimal;
  tax: Decimal;
}

export interface RecognizedShare {
  net: Decimal;
  tax: Decimal;
}

/**
 * The part of a line's net amount and tax recognised when `shipping` more units leave after
 * `before` units already left: the cumulative share after minus the cumulative share before,
 * each rounded to 4 places, so the shares of a fully shipped line add up to its amounts exactly
 * and no unit is recognised twice.
 */
export function recognizedShare(line: LineMoney, before: number, shipping: number): RecognizedShare {
  const share = (units: number, amount: Decimal) =>
    line.quantity <= 0
      ? money(0)
      : amount.times(Math.min(units, line.quantity)).dividedBy(line.quantity).toDecimalPlaces(4);
  return {
    net: share(before + shipping, line.net).minus(share(before, line.net)),
    tax: share(before + shipping, line.tax).minus(share(before, line.tax)),
  };
}
