import { readWrite } from '#platform/auth/scopes';

/** The scopes of the sales context's routes. */
export const SALES_SCOPES: readonly string[] = [
  ...readWrite(
    'accounts',
    'orders',
    'payments',
    'purchasing',
    'payment_terms',
    'units_of_measure',
    'sales_channels',
    'pricing_levels',
  ),
  // Passes the order-revision gate of POST /packages.
  'orders:revision_override',
];
