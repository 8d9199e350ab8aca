import { toJsonNumber } from '#platform/domain/money';
import { InventoryTransactionRecord } from '../infrastructure/inventory.entities';

export interface TransactionResource {
  id: string;
  object: 'inventory_transaction';
  balance_id: string;
  product_id: string;
  variant_id: string | null;
  location_id: string;
  type: string;
  quantity: number;
  unit_cost: number | null;
  value: number | null;
  source_type: string | null;
  source_id: string | null;
  order_id: string | null;
  order_item_id: string | null;
  reason: string | null;
  serial_numbers: string[];
  journal_entry_id: string | null;
  livemode: boolean;
  occurred_at: string;
  created_at: string;
}

export function toTransactionResource(t: InventoryTransactionRecord): TransactionResource {
  return {
    id: t.id,
    object: 'inventory_transaction',
    balance_id: t.balanceId,
    product_id: t.productId,
    variant_id: t.variantId,
    location_id: t.locationId,
    type: t.type,
    quantity: t.quantity,
    unit_cost: toJsonNumber(t.unitCost),
    value: toJsonNumber(t.value),
    source_type: t.sourceType,
    source_id: t.sourceId,
    order_id: t.orderId,
    order_item_id: t.orderItemId,
    reason: t.reason,
    serial_numbers: t.serialNumbers ?? [],
    journal_entry_id: t.journalEntryId,
    livemode: t.livemode,
    occurred_at: t.occurredAt.toISOString(),
    created_at: t.createdAt.toISOString(),
  };
}
