import { applyDecorators } from '@nestjs/common';
import { IsNumber, ValidateBy } from 'class-validator';
import { RequestContext } from '../tenancy/request-context';

/** Money columns are numeric(19,4): 15 digits before the point, 4 after. */
export const MONEY_LIMIT = 1e15;

/**
 * A money amount in a request body: a finite JSON number with at most 4 decimal places and an
 * absolute value below 10^15, so that it fits the numeric(19,4) columns it is stored in, and
 * exactly the decimal that was sent, so nothing is silently rounded: the body's literal for it
 * was not changed by JSON parsing (`123456789012345.6789` parses to the double printed
 * `123456789012345.67`, `99999999999999.9999` to `100000000000000`; the body parser records
 * such values in the request state, see json-limits.ts inexactNumbers()). Field
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
        validate: (value: unknown) =>
          typeof value !== 'number' || !RequestContext.state()?.inexactNumbers?.has(value),
        defaultMessage: () =>
          '$property has more significant digits than a JSON number carries exactly; send at most 4 decimal places and no more than 15 significant digits',
      },
    }),
  );
