import Decimal from 'decimal.js';
import { InventoryError } from './inventory-error';

/** The kinds of stock ledger rows. */
export const MOVEMENT_TYPES = [
  'receipt',
  'adjustment',
  'transfer_out',
  'transfer_in',
  'fulfillment',
  'return',
  'build_consumption',
  'build_output',
  'cycle_count',
] as const;
export type MovementType = (typeof MOVEMENT_TYPES)[number];

const dp4 = (d: Decimal) => d.toDecimalPlaces(4, Decimal.ROUND_HALF_UP);

/** The valuation facts of one balance. */
export interface Valuation {
  onHand: number;
  value: Decimal;
  unitCost: Decimal;
}

/** What one movement does to a balance's valuation: the ledger row's cost and value, and the balance after. */
export interface Valued {
  unitCost: Decimal;
  /** Signed value of the ledger row. */
  value: Decimal;
  after: Valuation;
}

/**
 * Moving weighted average (perpetual). An incoming movement with a cost adds quantity × cost to
 * the value and the average becomes value / on_hand. An outgoing movement leaves at the current
 * average: quantity × average, except that the movement emptying the balance takes exactly the
 * value left, so a balance at zero units is worth exactly zero and rounding never accumulates.
 * While on hand is zero or negative the average is the last known one (an incoming movement
 * without a cost comes in at it).
 */
export function valueMovement(
  before: Valuation,
  quantity: number,
  incomingUnitCost?: Decimal,
  incomingValue?: Decimal,
): Valued {
  if (!Number.isInteger(quantity) || quantity === 0)
    throw new Error('A movement moves a non-zero integer quantity');
  const onHand = before.onHand + quantity;
  if (quantity > 0) {
    // A transfer's incoming half carries exactly the value its outgoing half took.
    const value = incomingValue
      ? dp4(incomingValue)
      : dp4(dp4(incomingUnitCost ?? before.unitCost).times(quantity));
    const unitCost = incomingValue
      ? dp4(value.dividedBy(quantity))
      : dp4(incomingUnitCost ?? before.unitCost);
    const after = before.value.plus(value);
    return {
      unitCost,
      value,
      after: {
        onHand,
        value: after,
        unitCost: onHand > 0 ? dp4(after.dividedBy(onHand)) : unitCost,
      },
    };
  }
  const unitCost = before.unitCost;
  const value = onHand === 0 && before.onHand > 0 ? before.value.negated() : dp4(unitCost.times(quantity));
  const afterValue = before.value.plus(value);
  return {
    unitCost,
    value,
    after: { onHand, value: afterValue, unitCost: onHand > 0 ? dp4(afterValue.dividedBy(onHand)) : unitCost },
  };
}

/** 422 insufficient_stock unless the movement leaves on hand at zero or more, or negative stock is allowed. */
export function assertStockSuffices(input: {
  onHand: number;
  quantity: number;
  allowNegative: boolean;
  productId: string;
  locationId: string;
  param?: string;
}): void {
  if (input.quantity >= 0 || input.allowNegative) return;
  if (input.onHand + input.quantity >= 0) return;
  throw new InventoryError('insufficient_stock', {
    param: input.param,
    hint: `Product '${input.productId}' has ${input.onHand} on hand at location '${input.locationId}'; ${-input.quantity} cannot leave (negative stock is not allowed for this entity).`,
    details: { available_quantity: input.onHand },
  });
}

/** Where a balance stands against its thresholds. */
export type StockLevel = 'in_stock' | 'low' | 'out';

/**
 * `out` at zero or below; `low` at or below the reorder point (while above zero); else `in_stock`.
 * A balance without a reorder point is only ever `in_stock` or `out`.
 */
export function stockLevelOf(onHand: number, reorderPoint: number | null): StockLevel {
  if (onHand <= 0) return 'out';
  if (reorderPoint !== null && onHand <= reorderPoint) return 'low';
  return 'in_stock';
}

export type StockEventType = 'inventory.low_stock' | 'inventory.out_of_stock' | 'inventory.back_in_stock';

/**
 * The events of one change of level, once per crossing: falling to or below the reorder point
 * is `low_stock`, reaching zero is `out_of_stock` (only that one when a movement falls from above
 * the point straight to zero: out of stock is the lower of the two levels), rising
 * above the reorder point again (or above zero without one) is `back_in_stock`. Moving within a
 * level emits nothing, nor does recovering from `out` to `low` (still at or below the point).
 */
export function crossingEvents(from: StockLevel, to: StockLevel): StockEventType[] {
  if (from === to) return [];
  if (to === 'in_stock') return ['inventory.back_in_stock'];
  if (to === 'out') return ['inventory.out_of_stock'];
  return from === 'in_stock' ? ['inventory.low_stock'] : [];
}

/** A counted quantity becomes the delta that brings on hand to it. */
export function countDelta(onHand: number, counted: number): number {
  return counted - onHand;
}
