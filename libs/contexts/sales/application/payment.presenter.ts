import { toJsonNumber } from '#platform/domain/money';
import { TOTAL_PLACES } from '../domain/order-totals';
import { PaymentApplicationRecord, PaymentRecord, RefundRecord } from '../infrastructure/order.entity';
import { resourceTimestamps } from '#platform/http/resource-fields';

const total = (v: Parameters<typeof toJsonNumber>[0]) => toJsonNumber(v, TOTAL_PLACES) as number;

export const toRefundResource = (r: RefundRecord) => ({
  id: r.id,
  object: 'refund' as const,
  payment_id: r.paymentId,
  order_id: r.orderId,
  amount: total(r.amount),
  currency: r.currency,
  status: r.status,
  reason: r.reason,
  livemode: r.livemode,
  created_at: r.createdAt.toISOString(),
});
export type RefundResource = ReturnType<typeof toRefundResource>;

export const toPaymentResource = (p: PaymentRecord, applications: PaymentApplicationRecord[]) => ({
  id: p.id,
  object: 'payment' as const,
  account_id: p.accountId,
  order_id: p.orderId,
  amount: total(p.amount),
  amount_refunded: total(p.amountRefunded),
  currency: p.currency,
  status: p.status,
  method: p.method,
  payment_method_id: p.paymentMethodId,
  card: p.cardLast4 ? { brand: p.cardBrand, last4: p.cardLast4 } : null,
  processor_reference: p.processorReference,
  failure_code: p.failureCode,
  failure_message: p.failureMessage,
  reference: p.reference,
  applications: applications.map((a) => ({ order_id: a.orderId, amount: total(a.amount) })),
  metadata: p.metadata,
  ...resourceTimestamps(p),
});
export type PaymentResource = ReturnType<typeof toPaymentResource>;
