import Decimal from 'decimal.js';

/** Exact decimal arithmetic for money and quantities; never JS floats. */
export const Money = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_EVEN });
export type Money = Decimal;

export const money = (value: Decimal.Value): Decimal => new Money(value);

/** Renders a decimal as a JSON number with at most `places` decimals (4 for amounts, 2 for totals). */
export const toJsonNumber = (value: Decimal | null | undefined, places = 4): number | null =>
  value === null || value === undefined
    ? null
    : // Rounding only where there is something to round (a stored amount mostly has no more places).
      Number((value.decimalPlaces() <= places ? value : value.toDecimalPlaces(places)).toString());
