import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { newId } from '#platform/persistence/ids';
import { money, toJsonNumber } from '#platform/domain/money';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { InventoryError } from '../domain/inventory-error';
import { assertSerialsForQuantity } from '../domain/serial';
import { countDelta } from '../domain/stock';
import { BalanceResource, toBalanceResource } from './balance.presenter';
import { InventoryPostings } from './inventory-postings.service';
import { SerialsService } from './serials.service';
import { StockLedger } from './stock-ledger.service';
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
 * and inventory.adjusted, in one transaction.
 */
@Injectable()
export class AdjustmentsService {
  constructor(
    private readonly tx: TransactionHost,
    private readonly ledger: StockLedger,
    private readonly postings: InventoryPostings,
    private readonly references: StockReferences,
    private readonly serials: SerialsService,
    private readonly batches: SharedMovementWrites,
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
    if (input.quantity !== undefined && this.batches.available) {
      const product = await this.references.product(input.product_id, 'product_id', input.variant_id);
      await this.references.location(input.location_id, 'location_id');
      if (!product.serialTracked) return this.batched(input, input.quantity);
    }
    return this.alone(input);
  }

  /** The adjustment in its own transaction (or the caller's). */
  private alone(input: AdjustmentInput): Promise<AdjustmentResource> {
    return this.tx.run(async () => {
      const product = await this.references.product(input.product_id, 'product_id', input.variant_id);
      await this.references.location(input.location_id, 'location_id');
      const key = {
        productId: input.product_id,
        variantId: input.variant_id ?? null,
        locationId: input.location_id,
      };
      const counted = input.counted_quantity !== undefined;
      const type = counted ? 'cycle_count' : 'adjustment';
      const id = newId();
      let delta = input.quantity ?? 0;
      if (counted) {
        const locked = await this.ledger.plan([], [key]);
        delta = countDelta([...locked.balances.values()][0].onHand, input.counted_quantity!);
      }
      if (input.unit_cost !== undefined && delta <= 0)
        throw new InventoryError('parameter_invalid', {
          param: 'unit_cost',
          hint: 'unit_cost applies to increases only: a decrease leaves at the moving-average cost.',
        });
      const serialNumbers = product.serialTracked
        ? assertSerialsForQuantity(input.serial_numbers, delta, 'serial_numbers', product.id)
        : [];
      if (!product.serialTracked && input.serial_numbers?.length)
        throw new InventoryError('parameter_invalid', {
          param: 'serial_numbers',
          hint: `Product '${product.id}' is not serial-tracked.`,
        });
      if (delta === 0) {
        const plan = await this.ledger.plan([], [key]);
        return this.present(id, type, input, 0, null, null, [], null, null, [...plan.balances.values()][0]);
      }
      if (delta > 0 && serialNumbers.length)
        await this.serials.receive({
          ...key,
          serialNumbers,
          lotNumber: input.lot_number,
          param: 'serial_numbers',
        });
      if (delta < 0 && serialNumbers.length)
        await this.serials.move({
          productId: product.id,
          serialNumbers,
          action: 'retire',
          param: 'serial_numbers',
          expectAt: input.location_id,
        });
      const plan = await this.ledger.plan([
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
      ]);
      const movement = plan.movements[0];
      const entry = await this.postings.adjustment(
        counted ? 'CYCLE_COUNT' : 'INVENTORY_ADJUSTMENT',
        id,
        movement.value,
        `Inventory ${counted ? 'count' : 'adjustment'}: ${input.reason}`,
      );
      let resource: AdjustmentResource | undefined;
      await this.ledger.apply(plan, {
        journalEntryId: entry?.id ?? null,
        events: ([row]) => {
          resource = this.present(
            id,
            type,
            input,
            delta,
            movement.unitCostApplied,
            movement.value,
            serialNumbers,
            row.id,
            entry?.id ?? null,
            movement.balance,
          );
          return [{ type: 'inventory.adjusted', object: resource }];
        },
      });
      return resource!;
    });
  }

  /**
   * A quantity adjustment of a product without serials, written in a transaction shared with the
   * stock movements of other requests of the entity (SharedMovementWrites); the same checks and
   * the same outcome as alone().
   */
  private batched(input: AdjustmentInput, delta: number): Promise<AdjustmentResource> {
    if (input.unit_cost !== undefined && delta <= 0)
      throw new InventoryError('parameter_invalid', {
        param: 'unit_cost',
        hint: 'unit_cost applies to increases only: a decrease leaves at the moving-average cost.',
      });
    if (input.serial_numbers?.length)
      throw new InventoryError('parameter_invalid', {
        param: 'serial_numbers',
        hint: `Product '${input.product_id}' is not serial-tracked.`,
      });
    const id = newId();
    return this.batches.submit<AdjustmentResource>({
      movements: [
        {
          productId: input.product_id,
          variantId: input.variant_id ?? null,
          locationId: input.location_id,
          type: 'adjustment',
          quantity: delta,
          unitCost: input.unit_cost !== undefined ? money(input.unit_cost) : undefined,
          sourceType: 'adjustment',
          sourceId: id,
          reason: input.reason,
          serialNumbers: [],
          param: 'quantity',
        },
      ],
      posting: ([movement], entryDate) =>
        this.postings.adjustmentRequest(
          'INVENTORY_ADJUSTMENT',
          id,
          movement.value,
          `Inventory adjustment: ${input.reason}`,
          entryDate,
        ),
      present: ([movement], [row], journalEntryId) => {
        const resource = this.present(
          id,
          'adjustment',
          input,
          delta,
          movement.unitCostApplied,
          movement.value,
          [],
          row.id,
          journalEntryId,
          movement.balance,
        );
        return { result: resource, events: [{ type: 'inventory.adjusted', object: resource }] };
      },
      alone: () => this.alone(input),
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
