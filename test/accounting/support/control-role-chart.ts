/** A chart with an account for every control role of the QA chart, for specs that build their own entity. */
export const CONTROL_ROLE_CHART = [
  { code: '1000', name: 'Cash', type: 'asset', control_role: 'cash', is_bank: true },
  { code: '1100', name: 'Accounts receivable', type: 'asset', control_role: 'receivables' },
  { code: '1150', name: 'Unbilled receivables', type: 'asset', control_role: 'unbilled_receivables' },
  { code: '1160', name: 'Sales channel clearing', type: 'asset', control_role: 'channel_clearing' },
  { code: '1200', name: 'Inventory', type: 'asset', control_role: 'inventory' },
  { code: '2000', name: 'Accounts payable', type: 'liability', control_role: 'payables' },
  { code: '2100', name: 'Sales tax payable', type: 'liability', control_role: 'tax' },
  { code: '2200', name: 'Customer credits', type: 'liability', control_role: 'customer_credit' },
  { code: '4000', name: 'Sales revenue', type: 'revenue', control_role: 'revenue' },
  { code: '5000', name: 'Cost of goods sold', type: 'expense', control_role: 'cogs' },
  { code: '5100', name: 'Inventory adjustments', type: 'expense', control_role: 'inventory_adjustment' },
  { code: '6900', name: 'Channel fees', type: 'expense' },
];
