import type { ApiPropertyOptions } from '@nestjs/swagger';
import { ValidateBy, ValidationOptions } from 'class-validator';
import { OptionalField } from '#platform/http/dto-fields';
import { metadataProblem } from '#platform/domain/metadata';

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

/** The OpenAPI description of a metadata object (string values), with an example. */
export const metadataDoc = (example: Record<string, string>) =>
  ({ type: 'object', additionalProperties: { type: 'string' }, example }) satisfies ApiPropertyOptions;

/** An optional metadata body field: documented with `example`, checked by IsMetadata. */
export const OptionalMetadata = (example: Record<string, string>, description?: string) =>
  OptionalField(description ? { ...metadataDoc(example), description } : metadataDoc(example), IsMetadata());

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
