import { METADATA_KEY_MAX, METADATA_MAX_KEYS, METADATA_VALUE_MAX } from '../domain/metadata';

/**
 * The description of a request body's `metadata`, from the limits mergeMetadata() and
 * metadataProblem() check: at most METADATA_MAX_KEYS keys of 1 to METADATA_KEY_MAX characters,
 * each value a string of at most METADATA_VALUE_MAX characters, or null (or "") to remove the key.
 */
export const requestMetadataSchema = (example?: Record<string, string>, description?: string) => ({
  type: 'object' as const,
  maxProperties: METADATA_MAX_KEYS,
  propertyNames: { minLength: 1, maxLength: METADATA_KEY_MAX },
  additionalProperties: { type: ['string', 'null'], maxLength: METADATA_VALUE_MAX },
  ...(example === undefined ? {} : { example }),
  description: [
    description,
    `At most ${METADATA_MAX_KEYS} keys (the stored ones counted, on a change), keys of 1 to ${METADATA_KEY_MAX} characters, values of at most ${METADATA_VALUE_MAX}.`,
  ]
    .filter(Boolean)
    .join(' '),
});
