/** Every scope a key may hold (SPEC.md's table plus the contract's additions). `*` grants all. */
export const RESOURCE_SCOPES = [
  'accounts',
  'orders',
  'products',
  'inventory',
  'fulfillment',
  'returns',
  'purchasing',
  'payments',
  'accounting',
  'integrations',
  'webhooks',
  'locations',
  'payment_terms',
  'units_of_measure',
  'sales_channels',
  'pricing_levels',
  'product_categories',
  'tags',
  'migrations',
  'api_keys',
  'assets',
] as const;

export const SCOPES: readonly string[] = [
  ...RESOURCE_SCOPES.flatMap((r) => [`${r}:read`, `${r}:write`]),
  'activity:read',
  'events:read',
  'webhooks:manage',
  // SPEC.md's permission `orders.revision_override`: passes the order-revision gate of POST /packages.
  'orders:revision_override',
].sort();

export const WILDCARD_SCOPE = '*';

export const READ_SCOPES = SCOPES.filter((s) => s.endsWith(':read'));

export const isKnownScope = (scope: string) => scope === WILDCARD_SCOPE || SCOPES.includes(scope);

/** Separates alternatives in one requirement: `orders:read|purchasing:read` is met by either scope. */
export const SCOPE_ALTERNATIVE = '|';

/** One requirement met by any of `scopes` (for routes SPEC.md lets two scopes open). */
export const anyScope = (...scopes: string[]) => scopes.join(SCOPE_ALTERNATIVE);

/** The alternatives of one requirement (a plain scope is its only alternative). */
export const alternativesOf = (requirement: string) => requirement.split(SCOPE_ALTERNATIVE);

/** The requirements of `required` that `held` does not meet (each is a scope or `a|b` alternatives). */
export function missingScopes(held: ReadonlySet<string>, required: readonly string[]): string[] {
  if (held.has(WILDCARD_SCOPE)) return [];
  return required.filter((requirement) => !alternativesOf(requirement).some((scope) => held.has(scope)));
}
