import { toJsonNumber } from '#platform/domain/money';
import { TOTAL_PLACES } from '../domain/order-totals';
import { CustomerCreditRecord } from '../infrastructure/order.entity';

const total = (v: Parameters<typeof toJsonNumber>[0]) => toJsonNumber(v, TOTAL_PLACES) as number;

/** A movement of an account's credit balance: positive `amount` adds credit, negative spends it. */
export const toCreditTransactionResource = (c: CustomerCreditRecord) => ({
  id: c.id,
  object: 'credit_transaction' as const,
  account_id: c.accountId,
  type: c.type,
  amount: total(c.amount),
  currency: c.currency,
  ending_balance: total(c.endingBalance),
  order_id: c.orderId,
  payment_id: c.paymentId,
  description: c.reference,
  livemode: c.livemode,
  created_at: c.createdAt.toISOString(),
});
export type CreditTransactionResource = ReturnType<typeof toCreditTransactionResource>;
