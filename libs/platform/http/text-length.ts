import { buildMessage, ValidateBy, type ValidationOptions } from 'class-validator';
import { atLeastCodePoints, atMostCodePoints } from '../domain/text-length';

/**
 * The length rules of every request string, counted in Unicode code points as JSON Schema's
 * `maxLength` / `minLength` count them (libs/platform/domain/text-length.ts). class-validator's
 * MaxLength / MinLength / Length count as validator.js does, which drops U+FE0E / U+FE0F
 * variation selectors from the count: a string the description says is too long was accepted.
 * These register under the names `maxLength` and `minLength`, which the OpenAPI generator turns
 * into those keywords, so the description states the limit the check applies.
 */

/** A length rule registered as `name` (the JSON Schema keyword it is described as). */
const lengthRule = (
  name: 'maxLength' | 'minLength',
  bound: number,
  holds: (value: string, bound: number) => boolean,
  message: string,
  options?: ValidationOptions,
): PropertyDecorator =>
  ValidateBy(
    {
      name,
      constraints: [bound],
      validator: {
        validate: (value: unknown) => typeof value === 'string' && holds(value, bound),
        defaultMessage: buildMessage(
          (each) => `${each}$property must be ${message} $constraint1 characters`,
          options,
        ),
      },
    },
    options,
  );

/** At most `max` characters (code points), described as `maxLength`. */
export const MaxChars = (max: number, options?: ValidationOptions): PropertyDecorator =>
  lengthRule('maxLength', max, atMostCodePoints, 'shorter than or equal to', options);

/** At least `min` characters (code points), described as `minLength`. */
export const MinChars = (min: number, options?: ValidationOptions): PropertyDecorator =>
  lengthRule('minLength', min, atLeastCodePoints, 'longer than or equal to', options);
