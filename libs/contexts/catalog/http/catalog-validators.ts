import { ValidateBy, ValidationOptions } from 'class-validator';
import { metadataProblem } from '../domain/metadata';

/** Stripe-style metadata object (see domain/metadata.ts); null values remove keys on update. */
export const IsMetadata = (options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isMetadata',
      validator: {
        validate: (value: unknown) => metadataProblem(value) === undefined,
        defaultMessage: (args) => metadataProblem(args?.value) ?? 'invalid metadata',
      },
    },
    options,
  );

/** A flat object of string values (variant options such as { "size": "L" }). */
export const IsStringMap = (maxKeys: number, options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isStringMap',
      validator: {
        validate: (value: unknown) =>
          typeof value === 'object' &&
          value !== null &&
          !Array.isArray(value) &&
          Object.keys(value).length <= maxKeys &&
          Object.entries(value).every(
            ([k, v]) => k.length > 0 && k.length <= 40 && typeof v === 'string' && v.length <= 200,
          ),
        defaultMessage: () =>
          `must be an object of at most ${maxKeys} string values (keys up to 40, values up to 200 characters)`,
      },
    },
    options,
  );

/** Body of an action that takes no parameters: any field is refused as unknown. */
export class EmptyBodyDto {}
