import { toJsonNumber } from '../../../platform/persistence/money';
import { isRevisionPending, OrderStatus } from '../domain/order';
import { TOTAL_PLACES } from '../domain/order-totals';
import {
  OrderLineRecord,
  OrderRecord,
  PaymentApplicationRecord,
  PaymentRecord,
  RefundRecord,
} from '../infrastructure/order.entity';

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const total = (v: Parameters<typeof toJsonNumber>[0]) => toJsonNumber(v, TOTAL_PLACES) as number;
const unit = (v: Parameters<typeof toJsonNumber>[0]) => toJsonNumber(v, 4);

export const toOrderLineResource = (l: OrderLineRecord) => ({
  id: l.id,
  object: 'order_line' as const,
  order_id: l.orderId,
  position: l.position,
  product_id: l.productId,
  description: l.description,
  quantity: unit(l.quantity) as number,
  list_price: unit(l.listPrice),
  unit_price: unit(l.unitPrice) as number,
  pricing_policy_id: l.pricingPolicyId,
  discount_percent: unit(l.discountPercent) as number,
  discount_amount: unit(l.discountAmount) as number,
  tax_rate: unit(l.taxRate) as number,
  subtotal: unit(l.subtotal) as number,
  discount_total: unit(l.discountTotal) as number,
  tax_total: unit(l.taxTotal) as number,
  total: unit(l.total) as number,
  parent_line_id: l.parentLineId ?? null,
});
export type OrderLineResource = ReturnType<typeof toOrderLineResource>;

export const toOrderResource = (o: OrderRecord, lines: OrderLineRecord[], tagIds: string[]) => ({
  id: o.id,
  object: 'order' as const,
  document_type: o.documentType,
  account_id: o.accountId,
  currency: o.currency,
  order_status: o.orderStatus,
  payment_status: o.paymentStatus,
  subtotal: total(o.subtotal),
  discount_total: total(o.discountTotal),
  tax_total: total(o.taxTotal),
  total: total(o.total),
  amount_paid: total(o.amountPaid),
  amount_refunded: total(o.amountRefunded),
  amount_due: total(o.amountDue),
  lines: lines.map(toOrderLineResource),
  source_order_id: o.sourceOrderId,
  converted_to_id: o.convertedToId,
  confirmed_at: iso(o.confirmedAt),
  cancelled_at: iso(o.cancelledAt),
  voided_at: iso(o.voidedAt),
  fulfilled_at: iso(o.fulfilledAt),
  closed_at: iso(o.closedAt),
  sent_to_customer_at: iso(o.sentToCustomerAt),
  revision: {
    revised: o.revisedAt !== null,
    revised_at: iso(o.revisedAt),
    revision_count: o.revisionCount,
    acknowledged: !isRevisionPending({
      orderStatus: o.orderStatus as OrderStatus,
      sentToCustomerAt: o.sentToCustomerAt,
      revisedAt: o.revisedAt,
      revisionAcknowledgedAt: o.revisionAcknowledgedAt,
    }),
    acknowledged_at: iso(o.revisionAcknowledgedAt),
    acknowledged_total: o.acknowledgedTotal === null ? null : total(o.acknowledgedTotal),
  },
  tag_ids: tagIds,
  notes: o.notes,
  metadata: o.metadata,
  livemode: o.livemode,
  created_at: o.createdAt.toISOString(),
  updated_at: o.updatedAt.toISOString(),
});
export type OrderResource = ReturnType<typeof toOrderResource>;

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
  livemode: p.livemode,
  created_at: p.createdAt.toISOString(),
  updated_at: p.updatedAt.toISOString(),
});
export type PaymentResource = ReturnType<typeof toPaymentResource>;
