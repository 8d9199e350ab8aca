import { SalesError } from './sales-error';

export { COUNTRY_PATTERN, normalizeCountry } from '#platform/reference-lists/postal-address';

/** Account rules: soft delete and merge leave a `deleted` record that refuses further changes. */
export const ACCOUNT_STATUSES = ['active', 'deleted'] as const;
export type AccountStatus = (typeof ACCOUNT_STATUSES)[number];

export const CURRENCY_PATTERN = /^[A-Za-z]{3}$/;

export function assertActive(account: { id: string; status: string }, action: string): void {
  if (account.status !== 'active') {
    throw new SalesError('invalid_state', {
      hint: `Account '${account.id}' has status '${account.status}'; ${action} needs an 'active' account.`,
    });
  }
}

/** A postal address as account addresses and locations hold it (the API's snake_case fields). */
export type { PostalAddress } from '#platform/reference-lists/postal-address';

export const normalizeCurrency = (currency: string) => currency.toUpperCase();

export type Metadata = Record<string, string>;
export const METADATA_MAX_KEYS = 50;
export const METADATA_KEY_MAX = 40;
export const METADATA_VALUE_MAX = 500;

/**
 * Stripe-style metadata update: keys are merged into the current set, and a key sent with an
 * empty string or null is removed. Returns the param at fault when a rule is broken.
 */
export function mergeMetadata(current: Metadata, changes: Record<string, unknown>): Metadata {
  const next: Metadata = { ...current };
  for (const [key, value] of Object.entries(changes)) {
    if (key.length === 0 || key.length > METADATA_KEY_MAX) {
      throw new SalesError('parameter_invalid', {
        param: `metadata.${key}`,
        hint: `Metadata keys have 1..${METADATA_KEY_MAX} characters.`,
      });
    }
    if (value === null || value === '') {
      delete next[key];
      continue;
    }
    if (typeof value !== 'string' || value.length > METADATA_VALUE_MAX) {
      throw new SalesError('parameter_invalid', {
        param: `metadata.${key}`,
        hint: `Metadata values are strings of at most ${METADATA_VALUE_MAX} characters.`,
      });
    }
    next[key] = value;
  }
  if (Object.keys(next).length > METADATA_MAX_KEYS) {
    throw new SalesError('parameter_invalid', {
      param: 'metadata',
      hint: `At most ${METADATA_MAX_KEYS} metadata keys.`,
    });
  }
  return next;
}
