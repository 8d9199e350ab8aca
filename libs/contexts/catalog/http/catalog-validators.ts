import { requestMetadataSchema } from '#platform/http/metadata-doc';
import type { ApiPropertyOptions } from '@nestjs/swagger';
import { ValidateBy, ValidationOptions } from 'class-validator';
import { OptionalField } from '#platform/http/dto-fields';
import { metadataProblem } from '#platform/domain/metadata';
import { atMostCodePoints } from '#platform/domain/text-length';

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
  OptionalField(requestMetadataSchema(example, description), IsMetadata());

/** The longest key and value of a string map (variant options). */
export const STRING_MAP_KEY_MAX = 40;
export const STRING_MAP_VALUE_MAX = 200;

/**
 * A flat object of string values (variant options such as { "size": "L" }). Its constraints
 * (key count, longest key, longest value, in code points) are what the description states
 * (maxProperties, propertyNames, additionalProperties).
 */
export const IsStringMap = (maxKeys: number, options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isStringMap',
      constraints: [maxKeys, STRING_MAP_KEY_MAX, STRING_MAP_VALUE_MAX],
      validator: {
        validate: (value: unknown) =>
          typeof value === 'object' &&
          value !== null &&
          !Array.isArray(value) &&
          Object.keys(value).length <= maxKeys &&
          Object.entries(value).every(
            ([k, v]) =>
              k.length > 0 &&
              atMostCodePoints(k, STRING_MAP_KEY_MAX) &&
              typeof v === 'string' &&
              atMostCodePoints(v, STRING_MAP_VALUE_MAX),
          ),
        defaultMessage: () =>
          `must be an object of at most ${maxKeys} string values (keys up to ${STRING_MAP_KEY_MAX}, values up to ${STRING_MAP_VALUE_MAX} characters)`,
      },
    },
    options,
  );
