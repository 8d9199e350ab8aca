import { toJsonNumber } from '#platform/domain/money';
import { InventoryBalanceRecord } from '../infrastructure/inventory.entities';
import { resourceTimestamps } from '#platform/http/resource-fields';

export interface BalanceResource {
  id: string;
  object: 'inventory_balance';
  product_id: string;
  variant_id: string | null;
  location_id: string;
  on_hand: number;
  allocated: number;
  available: number;
  on_order: number;
  unit_cost: number | null;
  value: number | null;
  reorder_point: number | null;
  reorder_quantity: number | null;
  safety_stock: number | null;
  below_reorder_point: boolean;
  livemode: boolean;
  created_at: string;
  updated_at: string;
}

export function toBalanceResource(b: InventoryBalanceRecord): BalanceResource {
  return {
    id: b.id,
    object: 'inventory_balance',
    product_id: b.productId,
    variant_id: b.variantId,
    location_id: b.locationId,
    on_hand: b.onHand,
    allocated: b.allocated,
    available: b.onHand - b.allocated,
    on_order: b.onOrder,
    unit_cost: toJsonNumber(b.unitCost),
    value: toJsonNumber(b.value),
    reorder_point: b.reorderPoint,
    reorder_quantity: b.reorderQuantity,
    safety_stock: b.safetyStock,
    below_reorder_point: b.reorderPoint !== null && b.onHand <= b.reorderPoint,
    ...resourceTimestamps(b),
  };
}
