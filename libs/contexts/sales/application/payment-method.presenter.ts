import { PaymentMethodRecord } from '../infrastructure/account.entity';
import { resourceTimestamps } from '#platform/http/resource-fields';

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
  ...resourceTimestamps(p),
});
