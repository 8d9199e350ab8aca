import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { newId } from '#platform/persistence/ids';
import { money, toJsonNumber } from '#platform/domain/money';
import { InventoryError } from '../domain/inventory-error';
import { assertSerialsForQuantity } from '../domain/serial';
import { countDelta } from '../domain/stock';
import { BalanceResource, toBalanceResource } from './balance.presenter';
import { InventoryPostings } from './inventory-postings.service';
import { SerialsService } from './serials.service';
import { MovementRequest } from './stock-ledger.service';
import { SharedMovementWrites } from './shared-movement-writes.port';
import { StockReferences } from './stock-references';

export interface AdjustmentInput {
  product_id: string;
  variant_id?: string | null;
  location_id: string;
  quantity?: number;
  counted_quantity?: number;
  reason: string;
  unit_cost?: number;
  serial_numbers?: string[];
  lot_number?: string;
}

export interface AdjustmentResource {
  id: string;
  object: 'inventory_adjustment';
  type: 'adjustment' | 'cycle_count';
  product_id: string;
  variant_id: string | null;
  location_id: string;
  quantity: number;
  counted_quantity: number | null;
  reason: string;
  unit_cost: number | null;
  value: number | null;
  serial_numbers: string[];
  transaction_id: string | null;
  journal_entry_id: string | null;
  balance: BalanceResource;
  livemode: boolean;
  created_at: string;
}

/**
 * Adjustments: a quantity delta, or a counted quantity (a cycle count) that becomes the delta
 * bringing on hand to it. One ledger row, the INVENTORY_ADJUSTMENT (or CYCLE_COUNT) posting
 * and inventory.adjusted, in one transaction (SharedMovementWrites, which may share it with the
 * movements of other requests of the entity). A count that changes nothing writes none of them.
 */
@Injectable()
export class AdjustmentsService {
  constructor(
    private readonly postings: InventoryPostings,
    private readonly references: StockReferences,
    private readonly serials: SerialsService,
    private readonly movements: SharedMovementWrites,
  ) {}

  async create(input: AdjustmentInput): Promise<AdjustmentResource> {
    if ((input.quantity === undefined) === (input.counted_quantity === undefined)) {
      throw new InventoryError(input.quantity === undefined ? 'parameter_missing' : 'parameter_invalid', {
        param: 'quantity',
        hint: 'Send either quantity (a signed change) or counted_quantity (the quantity counted), not both.',
      });
    }
    if (input.quantity === 0)
      throw new InventoryError('parameter_invalid', { param: 'quantity', hint: 'quantity cannot be 0.' });
    const product = await this.references.product(input.product_id, 'product_id', input.variant_id);
    await this.references.location(input.location_id, 'location_id');
    const counted = input.counted_quantity !== undefined;
    // A quantity's 400s come before the request waits for its transaction; a count's need the balance.
    if (!counted) checkedSerials(product, input, input.quantity!);
    const type = counted ? 'cycle_count' : 'adjustment';
    const sourceType = counted ? 'CYCLE_COUNT' : 'INVENTORY_ADJUSTMENT';
    const entryDate = await this.postings.businessDay();
    const id = newId();
    const key = {
      productId: input.product_id,
      variantId: input.variant_id ?? null,
      locationId: input.location_id,
    };
    return this.movements.submit<AdjustmentResource>({
      balances: [key],
      movements: (balanceOf) => {
        const delta = counted ? countDelta(balanceOf(key).onHand, input.counted_quantity!) : input.quantity!;
        const serialNumbers = checkedSerials(product, input, delta);
        if (delta === 0) return [];
        return [
          {
            ...key,
            type,
            quantity: delta,
            unitCost: input.unit_cost !== undefined ? money(input.unit_cost) : undefined,
            sourceType: 'adjustment',
            sourceId: id,
            reason: input.reason,
            serialNumbers,
            param: counted ? 'counted_quantity' : 'quantity',
          },
        ];
      },
      beforeValuing: product.serialTracked ? ([movement]) => this.moveSerials(input, movement) : undefined,
      posting: ([movement]) =>
        this.postings.adjustmentRequest(
          sourceType,
          id,
          movement.value,
          `Inventory ${counted ? 'count' : 'adjustment'}: ${input.reason}`,
          entryDate,
        ),
      present: ([movement], [row], journalEntryId, balanceOf) => {
        if (!movement) {
          const unchanged = this.present(id, type, input, 0, null, null, [], null, null, balanceOf(key));
          return { result: unchanged, events: [] };
        }
        const resource = this.present(
          id,
          type,
          input,
          movement.quantity,
          movement.unitCostApplied,
          movement.value,
          movement.serialNumbers ?? [],
          row.id,
          journalEntryId,
          movement.balance,
        );
        return { result: resource, events: [{ type: 'inventory.adjusted', object: resource }] };
      },
    });
  }

  /** An increase receives its serials at the location; a decrease retires them from it. */
  private async moveSerials(input: AdjustmentInput, movement: MovementRequest): Promise<void> {
    const serialNumbers = movement.serialNumbers ?? [];
    if (serialNumbers.length === 0) return;
    if (movement.quantity > 0)
      await this.serials.receive({
        productId: movement.productId,
        variantId: movement.variantId,
        locationId: movement.locationId,
        serialNumbers,
        lotNumber: input.lot_number,
        param: 'serial_numbers',
      });
    else
      await this.serials.move({
        productId: movement.productId,
        serialNumbers,
        action: 'retire',
        param: 'serial_numbers',
        expectAt: movement.locationId,
      });
  }

  private present(
    id: string,
    type: 'adjustment' | 'cycle_count',
    input: AdjustmentInput,
    quantity: number,
    unitCost: Decimal | null,
    value: Decimal | null,
    serialNumbers: string[],
    transactionId: string | null,
    journalEntryId: string | null,
    balance: Parameters<typeof toBalanceResource>[0],
  ): AdjustmentResource {
    return {
      id,
      object: 'inventory_adjustment',
      type,
      product_id: input.product_id,
      variant_id: input.variant_id ?? null,
      location_id: input.location_id,
      quantity,
      counted_quantity: input.counted_quantity ?? null,
      reason: input.reason,
      unit_cost: toJsonNumber(unitCost),
      value: toJsonNumber(value),
      serial_numbers: serialNumbers,
      transaction_id: transactionId,
      journal_entry_id: journalEntryId,
      balance: toBalanceResource(balance),
      livemode: balance.livemode,
      created_at: new Date().toISOString(),
    };
  }
}

/**
 * The serial numbers of a change of `delta` units: one per unit for a serial-tracked product, none
 * otherwise; 400 for a unit cost on a decrease.
 */
function checkedSerials(
  product: { id: string; serialTracked: boolean },
  input: AdjustmentInput,
  delta: number,
): string[] {
  if (input.unit_cost !== undefined && delta <= 0)
    throw new InventoryError('parameter_invalid', {
      param: 'unit_cost',
      hint: 'unit_cost applies to increases only: a decrease leaves at the moving-average cost.',
    });
  if (product.serialTracked)
    return assertSerialsForQuantity(input.serial_numbers, delta, 'serial_numbers', product.id);
  if (input.serial_numbers?.length)
    throw new InventoryError('parameter_invalid', {
      param: 'serial_numbers',
      hint: `Product '${product.id}' is not serial-tracked.`,
    });
  return [];
}
