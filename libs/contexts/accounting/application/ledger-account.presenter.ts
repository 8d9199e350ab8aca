import { LedgerAccountRecord } from '../infrastructure/accounting.entities';
import { resourceTimestamps } from '#platform/http/resource-fields';

export const toLedgerAccount = (a: LedgerAccountRecord) => ({
  id: a.id,
  object: 'ledger_account' as const,
  code: a.code,
  name: a.name,
  type: a.type,
  normal_balance: a.normalBalance,
  postable: a.postable,
  parent_id: a.parentId,
  control_role: a.controlRole,
  description: a.description,
  active: a.active,
  is_bank: a.isBank,
  ...resourceTimestamps(a),
});
