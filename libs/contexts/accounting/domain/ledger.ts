/** Chart-of-accounts rules: account types, their normal balance, control-account roles. */
export const ACCOUNT_TYPES = ['asset', 'liability', 'equity', 'revenue', 'expense'] as const;
export type AccountType = (typeof ACCOUNT_TYPES)[number];

export const NORMAL_BALANCES = ['debit', 'credit'] as const;
export type NormalBalance = (typeof NORMAL_BALANCES)[number];

/** Roles that other contexts post against; each is held by at most one account per entity and mode. */
export const CONTROL_ROLES = [
  'receivables',
  'payables',
  'inventory',
  'cash',
  'revenue',
  'cogs',
  'tax',
  'customer_credit',
  'suspense',
  'inventory_adjustment',
  'received_not_billed',
  'unbilled_receivables',
  'channel_clearing',
] as const;
export type ControlRole = (typeof CONTROL_ROLES)[number];

/**
 * The role a posting falls back to when no account of the entity holds its own: a chart made
 * before `unbilled_receivables` or `channel_clearing` existed keeps posting shipped, not yet
 * invoiced amounts and what sales channels owe to receivables, as it did then.
 */
export const ROLE_FALLBACKS: Partial<Record<string, ControlRole>> = {
  unbilled_receivables: 'receivables',
  channel_clearing: 'receivables',
};

/** The roles to read for postings naming `roles`: each with its fallback. */
export const rolesWithFallbacks = (roles: Iterable<string>): string[] => {
  const all = new Set<string>();
  for (const role of roles) {
    all.add(role);
    const fallback = ROLE_FALLBACKS[role];
    if (fallback) all.add(fallback);
  }
  return [...all];
};

/** Assets and expenses carry debit balances; liabilities, equity and revenue carry credit balances. */
export function normalBalanceOf(type: AccountType): NormalBalance {
  return type === 'asset' || type === 'expense' ? 'debit' : 'credit';
}
