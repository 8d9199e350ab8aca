/** Stripe-style metadata: up to 50 string pairs, keys up to 40 characters, values up to 500. */
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
    if (key.length === 0 || key.length > METADATA_KEY_MAX)
      return `metadata keys are 1 to ${METADATA_KEY_MAX} characters`;
    if (v !== null && typeof v !== 'string')
      return `metadata.${key} must be a string (or null/"" to remove it)`;
    if (typeof v === 'string' && v.length > METADATA_VALUE_MAX)
      return `metadata.${key} is longer than ${METADATA_VALUE_MAX} characters`;
  }
  return undefined;
}

/**
 * Applies an update the way Stripe does: given keys are set, keys set to "" or null are
 * removed, other keys are kept. The result may not exceed the key limit.
 */
export function mergeMetadata(current: Metadata, changes: Record<string, string | null>): Metadata {
  const next: Metadata = { ...current };
  for (const [key, value] of Object.entries(changes)) {
    if (value === null || value === '') delete next[key];
    else next[key] = value;
  }
  return next;
}

/** A create body's metadata without the removal markers. */
export const initialMetadata = (changes: Record<string, string | null> | undefined): Metadata =>
  mergeMetadata({}, changes ?? {});
