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
] as const;
export type ControlRole = (typeof CONTROL_ROLES)[number];

/** Assets and expenses carry debit balances; liabilities, equity and revenue carry credit balances. */
export function normalBalanceOf(type: AccountType): NormalBalance {
  return type === 'asset' || type === 'expense' ? 'debit' : 'credit';
}
