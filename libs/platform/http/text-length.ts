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
export const MaxChars = (max: number, options?: ValidationOptions): PropertyDecorator =>
  ValidateBy(
    {
      name: 'maxLength',
      constraints: [max],
      validator: {
        validate: (value: unknown) => typeof value === 'string' && atMostCodePoints(value, max),
        defaultMessage: buildMessage(
          (each) => `${each}$property must be shorter than or equal to $constraint1 characters`,
          options,
        ),
      },
    },
    options,
  );

/** At least `min` characters (code points), described as `minLength`. */
export const MinChars = (min: number, options?: ValidationOptions): PropertyDecorator =>
  ValidateBy(
    {
      name: 'minLength',
      constraints: [min],
      validator: {
        validate: (value: unknown) => typeof value === 'string' && atLeastCodePoints(value, min),
        defaultMessage: buildMessage(
          (each) => `${each}$property must be longer than or equal to $constraint1 characters`,
          options,
        ),
      },
    },
    options,
  );
