import { toJsonNumber } from '#platform/domain/money';
import { TOTAL_PLACES } from '../domain/order-totals';
import { AccountRecord } from '../infrastructure/account.entity';
import { resourceTimestamps } from '#platform/http/resource-fields';

export type AccountResource = ReturnType<typeof toAccountResource>;

/** `tagIds`: the account's tags (TagsService.tagIdsOf), in attachment order. */
export const toAccountResource = (a: AccountRecord, tagIds: string[]) => ({
  id: a.id,
  object: 'account' as const,
  name: a.name,
  email: a.email,
  phone: a.phone,
  currency: a.currency,
  credit_limit: toJsonNumber(a.creditLimit),
  credit_balance: toJsonNumber(a.creditBalance, TOTAL_PLACES) as number,
  payment_terms_id: a.paymentTermsId,
  tax_id: a.taxId,
  status: a.status,
  deleted: a.status === 'deleted',
  deleted_at: a.deletedAt ? a.deletedAt.toISOString() : null,
  merged_into_id: a.mergedIntoId,
  tag_ids: tagIds,
  metadata: a.metadata,
  ...resourceTimestamps(a),
});
