import { isoOrNull, resourceTimestamps } from '#platform/http/resource-fields';
import { money, toJsonNumber } from '#platform/persistence/money';
import { ReturnAuthorizationRecord, ReturnReceiptRecord } from '../../infrastructure/fulfillment.entities';

const total = (v: Parameters<typeof toJsonNumber>[0]) => toJsonNumber(v, 2) as number;

export const toReturnResource = (r: ReturnAuthorizationRecord) => ({
  id: r.id,
  object: 'return' as const,
  account_id: r.accountId,
  order_id: r.orderId,
  status: r.status,
  reason: r.reason,
  currency: r.currency,
  lines: r.lines.map((l) => ({
    order_item_id: l.order_item_id,
    product_id: l.product_id,
    quantity: l.quantity,
    received_quantity: l.received_quantity,
  })),
  amount_received: total(r.receivedNet.plus(r.receivedTax)),
  amount_refunded: total(r.amountRefunded),
  refunds: r.refunds.map((f) => ({
    id: f.id,
    amount: total(money(f.amount)),
    method: f.method,
    invoice_id: f.invoice_id,
    amount_due_reduced: total(money(f.amount_due_reduced ?? 0)),
    refunded_amount: total(money(f.amount).minus(f.amount_due_reduced ?? 0)),
    refund_ids: f.refund_ids,
    credit_transaction_id: f.credit_transaction_id ?? null,
    created_at: f.created_at,
  })),
  received_at: isoOrNull(r.receivedAt),
  refunded_at: isoOrNull(r.refundedAt),
  cancelled_at: isoOrNull(r.cancelledAt),
  ...resourceTimestamps(r),
});
export type ReturnResource = ReturnType<typeof toReturnResource>;

export const toReceiptResource = (r: ReturnReceiptRecord, packageStatus: string) => ({
  id: r.id,
  object: 'return_receipt' as const,
  return_id: r.returnOrderId,
  package_id: r.packageId,
  order_id: r.orderId,
  location_id: r.locationId,
  lines: r.lines.map((l) => ({ ...l, unit_cost: toJsonNumber(money(l.unit_cost), 4) })),
  total_value: toJsonNumber(r.totalValue, 4) as number,
  revenue_reversed: toJsonNumber(r.revenueReversed, 4) as number,
  package_status: packageStatus,
  livemode: r.livemode,
  created_at: r.createdAt.toISOString(),
});
export type ReturnReceiptResource = ReturnType<typeof toReceiptResource>;
