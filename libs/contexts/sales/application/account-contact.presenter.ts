import { AccountContactRecord } from '../infrastructure/account.entity';
import { resourceTimestamps } from '#platform/http/resource-fields';

export const toContactResource = (c: AccountContactRecord) => ({
  id: c.id,
  object: 'account_contact' as const,
  account_id: c.accountId,
  name: c.name,
  email: c.email,
  phone: c.phone,
  role: c.role,
  is_primary: c.isPrimary,
  ...resourceTimestamps(c),
});
