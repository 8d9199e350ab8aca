import { toJsonNumber } from '../../../platform/persistence/money';
import {
  AccountAddressRecord,
  AccountContactRecord,
  AccountRecord,
  PaymentMethodRecord,
} from '../infrastructure/account.entity';

const timestamps = (r: { livemode: boolean; createdAt: Date; updatedAt: Date }) => ({
  livemode: r.livemode,
  created_at: r.createdAt.toISOString(),
  updated_at: r.updatedAt.toISOString(),
});

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
  payment_terms_id: a.paymentTermsId,
  tax_id: a.taxId,
  status: a.status,
  deleted: a.status === 'deleted',
  deleted_at: a.deletedAt ? a.deletedAt.toISOString() : null,
  merged_into_id: a.mergedIntoId,
  tag_ids: tagIds,
  metadata: a.metadata,
  ...timestamps(a),
});

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
  ...timestamps(a),
});

export const toContactResource = (c: AccountContactRecord) => ({
  id: c.id,
  object: 'account_contact' as const,
  account_id: c.accountId,
  name: c.name,
  email: c.email,
  phone: c.phone,
  role: c.role,
  is_primary: c.isPrimary,
  ...timestamps(c),
});

export const toPaymentMethodResource = (p: PaymentMethodRecord) => ({
  id: p.id,
  object: 'payment_method' as const,
  account_id: p.accountId,
  type: p.type,
  card:
    p.type === 'card'
      ? { brand: p.cardBrand, last4: p.cardLast4, exp_month: p.cardExpMonth, exp_year: p.cardExpYear }
      : null,
  bank_account: p.type === 'bank_account' ? { bank_name: p.bankName, last4: p.bankLast4 } : null,
  description: p.description,
  billing_name: p.billingName,
  is_default: p.isDefault,
  metadata: p.metadata,
  ...timestamps(p),
});
