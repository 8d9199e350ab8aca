import { applyDecorators } from '@nestjs/common';
import { IsNumber, ValidateBy } from 'class-validator';

/** Money columns are numeric(19,4): 15 digits before the point, 4 after. */
export const MONEY_LIMIT = 1e15;

/** Significant digits that every JSON number (an IEEE 754 double) carries exactly. */
export const MONEY_SIGNIFICANT_DIGITS = 15;

/**
 * Whether a parsed JSON number is exactly a decimal of at most 4 places that the client can have
 * meant. `String(n)` is the shortest decimal that reads back as the same double; a decimal of at
 * most 15 significant digits always survives the trip through a double unchanged, so when that
 * text has at most 4 decimals and 15 significant digits it is the amount that was sent.
 * `123456789012345.6789` becomes the double printed `123456789012345.67` (17 digits): refused,
 * rather than stored rounded.
 */
export function isExactMoneyNumber(value: number): boolean {
  if (!Number.isFinite(value)) return false;
  const text = String(Math.abs(value));
  if (/e/i.test(text)) {
    // Exponent forms: below 1e-6 (too many decimals) or at least 1e21 (over the limit anyway).
    return false;
  }
  const [whole, fraction = ''] = text.split('.');
  if (fraction.length > 4) return false;
  const digits = (whole + fraction).replace(/^0+/, '');
  return digits.length <= MONEY_SIGNIFICANT_DIGITS;
}

/**
 * A money amount in a request body: a finite JSON number with at most 4 decimal places and an
 * absolute value below 10^15, so that it fits the numeric(19,4) columns it is stored in, and
 * exactly the decimal that was sent (isExactMoneyNumber), so nothing is silently rounded. Field
 * rules such as @Min(0) are added next to it.
 */
export const IsMoneyAmount = (): PropertyDecorator =>
  applyDecorators(
    IsNumber({ allowNaN: false, allowInfinity: false, maxDecimalPlaces: 4 }),
    ValidateBy({
      name: 'isMoneyAmount',
      validator: {
        validate: (value: unknown) => typeof value === 'number' && Math.abs(value) < MONEY_LIMIT,
        defaultMessage: () => '$property must be less than 1000000000000000 in absolute value',
      },
    }),
    ValidateBy({
      name: 'isExactMoneyAmount',
      validator: {
        validate: (value: unknown) => typeof value !== 'number' || isExactMoneyNumber(value),
        defaultMessage: () =>
          `$property must be exactly representable: at most 4 decimal places and ${MONEY_SIGNIFICANT_DIGITS} significant digits in total`,
      },
    }),
  );
