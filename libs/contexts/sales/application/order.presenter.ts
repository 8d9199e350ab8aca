import { toJsonNumber } from '#platform/domain/money';
import { isRevisionPending, OrderStatus } from '../domain/order';
import { TOTAL_PLACES } from '../domain/order-totals';
import { OrderLineRecord, OrderRecord } from '../infrastructure/order.entity';
import { isoOrNull, resourceTimestamps } from '#platform/http/resource-fields';

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
  amount_credited: total(o.amountCredited),
  lines: lines.map(toOrderLineResource),
  source_order_id: o.sourceOrderId,
  converted_to_id: o.convertedToId,
  confirmed_at: isoOrNull(o.confirmedAt),
  cancelled_at: isoOrNull(o.cancelledAt),
  voided_at: isoOrNull(o.voidedAt),
  fulfilled_at: isoOrNull(o.fulfilledAt),
  closed_at: isoOrNull(o.closedAt),
  sent_to_customer_at: isoOrNull(o.sentToCustomerAt),
  revision: {
    revised: o.revisedAt !== null,
    revised_at: isoOrNull(o.revisedAt),
    revision_count: o.revisionCount,
    acknowledged: !isRevisionPending({
      orderStatus: o.orderStatus as OrderStatus,
      sentToCustomerAt: o.sentToCustomerAt,
      revisedAt: o.revisedAt,
      revisionAcknowledgedAt: o.revisionAcknowledgedAt,
    }),
    acknowledged_at: isoOrNull(o.revisionAcknowledgedAt),
    acknowledged_total: o.acknowledgedTotal === null ? null : total(o.acknowledgedTotal),
  },
  due_date: o.dueDate,
  collection_status: o.collectionStatus,
  overdue_at: isoOrNull(o.overdueAt),
  tag_ids: tagIds,
  notes: o.notes,
  metadata: o.metadata,
  ...resourceTimestamps(o),
});
export type OrderResource = ReturnType<typeof toOrderResource>;
