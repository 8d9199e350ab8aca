import Decimal from 'decimal.js';
import { ValueTransformer } from 'typeorm';

/** Exact decimal arithmetic for money and quantities; never JS floats. */
export const Money = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_EVEN });
export type Money = Decimal;

export const money = (value: Decimal.Value): Decimal => new Money(value);

/** numeric(19,4) column <-> Decimal. PostgreSQL returns numerics as strings, so no float ever appears. */
export const moneyTransformer: ValueTransformer = {
  to: (value: Decimal | string | number | null | undefined) =>
    value === null || value === undefined ? value : new Money(value).toFixed(4),
  from: (value: string | null) => (value === null || value === undefined ? null : new Money(value)),
};

/** Renders a decimal as a JSON number with at most `places` decimals (4 for amounts, 2 for totals). */
export const toJsonNumber = (value: Decimal | null | undefined, places = 4): number | null =>
  value === null || value === undefined
    ? null
    : // Rounding only where there is something to round (a stored amount mostly has no more places).
      Number((value.decimalPlaces() <= places ? value : value.toDecimalPlaces(places)).toString());
