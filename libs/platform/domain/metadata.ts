import { invalidParam } from '../errors/domain-error';
import { atMostCodePoints } from './text-length';

/**
 * Metadata: up to 50 string pairs, keys of 1 to 40 characters, values up to 500 (characters are
 * code points, as the description's `propertyNames` and `maxLength` count them).
 */
export type Metadata = Record<string, string>;

export const METADATA_MAX_KEYS = 50;
export const METADATA_KEY_MAX = 40;
export const METADATA_VALUE_MAX = 500;

/** Why a metadata object is refused, or undefined when it is acceptable. */
export function metadataProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return 'metadata must be an object';
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > METADATA_MAX_KEYS) return `metadata holds at most ${METADATA_MAX_KEYS} keys`;
  for (const [key, v] of entries) {
    if (key.length === 0 || !atMostCodePoints(key, METADATA_KEY_MAX))
      return `metadata keys are 1 to ${METADATA_KEY_MAX} characters`;
    if (v !== null && typeof v !== 'string')
      return `metadata.${key} must be a string (or null/"" to remove it)`;
    if (typeof v === 'string' && !atMostCodePoints(v, METADATA_VALUE_MAX))
      return `metadata.${key} is longer than ${METADATA_VALUE_MAX} characters`;
  }
  return undefined;
}

/**
 * Applies a metadata update: given keys are set, keys sent as "" or null are removed, other keys
 * are kept. A key or value outside the limits, or a result above the key limit, is a 400
 * parameter_invalid naming the field.
 */
export function mergeMetadata(current: Metadata, changes: Record<string, unknown>): Metadata {
  const next: Metadata = { ...current };
  for (const [key, value] of Object.entries(changes)) {
    if (key.length === 0 || !atMostCodePoints(key, METADATA_KEY_MAX))
      throw invalidParam(`metadata.${key}`, `Metadata keys have 1..${METADATA_KEY_MAX} characters.`);
    if (value === null || value === '') {
      delete next[key];
      continue;
    }
    if (typeof value !== 'string' || !atMostCodePoints(value, METADATA_VALUE_MAX))
      throw invalidParam(
        `metadata.${key}`,
        `Metadata values are strings of at most ${METADATA_VALUE_MAX} characters.`,
      );
    next[key] = value;
  }
  if (Object.keys(next).length > METADATA_MAX_KEYS)
    throw invalidParam('metadata', `At most ${METADATA_MAX_KEYS} metadata keys.`);
  return next;
}

/** A create body's metadata without the removal markers. */
export const initialMetadata = (changes: Record<string, unknown> | undefined): Metadata =>
  mergeMetadata({}, changes ?? {});
