import type { BalanceFacts } from '#contexts/inventory';

/** A stock balance as planning reads it: inventory's balance facts, in whole units. */
export type BalanceSnapshot = BalanceFacts;

export interface BalancePageRequest {
  locationId?: string;
  /** Only balances of these products (an empty list matches nothing). */
  productIds?: readonly string[];
  startingAfter?: string;
  endingBefore?: string;
  limit: number;
}

/**
 * Port owned by replenishment: pages of stock balances, newest first, keyset by balance id.
 * Implemented over inventory's public services (infrastructure/inventory-balance.source.ts).
 */
export interface BalanceSource {
  page(request: BalancePageRequest): Promise<{ rows: BalanceSnapshot[]; has_more: boolean }>;
}

export const BALANCE_SOURCE = Symbol('BalanceSource');
