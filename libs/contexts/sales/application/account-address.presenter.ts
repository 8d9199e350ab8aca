import { AccountAddressRecord } from '../infrastructure/account.entity';
import { resourceTimestamps } from '#platform/http/resource-fields';

export const toAddressResource = (a: AccountAddressRecord) => ({
  id: a.id,
  object: 'account_address' as const,
  account_id: a.accountId,
  type: a.type,
  line1: a.line1,
  line2: a.line2,
  city: a.city,
  region: a.region,
  postal_code: a.postalCode,
  country: a.country,
  is_default: a.isDefault,
  ...resourceTimestamps(a),
});
