import { SalesError } from './sales-error';

export { COUNTRY_PATTERN, normalizeCountry } from '#platform/reference-lists/postal-address';

/** Account rules: soft delete and merge leave a `deleted` record that refuses further changes. */
export const ACCOUNT_STATUSES = ['active', 'deleted'] as const;

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
