import { Injectable } from '@nestjs/common';
import { newId } from '#platform/persistence/ids';
import { toJsonNumber } from '#platform/domain/money';
import { InventoryError } from '../domain/inventory-error';
import { assertSerialsForQuantity } from '../domain/serial';
import { BalanceResource, toBalanceResource } from './balance.presenter';
import { InventoryPostings } from './inventory-postings.service';
import { SerialsService } from './serials.service';
import { MovementRequest, PlannedMovement } from './stock-ledger.service';
import { SharedMovementWrites } from './shared-movement-writes.port';
import { InventoryTransactionRecord } from '../infrastructure/inventory.entities';
import { StockReferences } from './stock-references';

export interface TransferInput {
  product_id: string;
  variant_id?: string | null;
  from_location_id: string;
  to_location_id: string;
  quantity: number;
  reason?: string;
  serial_numbers?: string[];
}

export interface TransferResource {
  id: string;
  object: 'inventory_transfer';
  product_id: string;
  variant_id: string | null;
  from_location_id: string;
  to_location_id: string;
  quantity: number;
  unit_cost: number | null;
  value: number | null;
  reason: string | null;
  serial_numbers: string[];
  transaction_ids: { transfer_out: string; transfer_in: string };
  journal_entry_id: string | null;
  from_balance: BalanceResource;
  to_balance: BalanceResource;
  livemode: boolean;
  created_at: string;
}

/** The transfer's two ledger rows: out of the source location, then in at the value that left it. */
function transferMovements(id: string, input: TransferInput, serialNumbers: string[]): MovementRequest[] {
  const common = {
    productId: input.product_id,
    variantId: input.variant_id ?? null,
    sourceType: 'transfer',
    sourceId: id,
    reason: input.reason ?? null,
    serialNumbers,
  };
  return [
    {
      ...common,
      locationId: input.from_location_id,
      type: 'transfer_out',
      quantity: -input.quantity,
      param: 'quantity',
    },
    {
      ...common,
      locationId: input.to_location_id,
      type: 'transfer_in',
      quantity: input.quantity,
      takesValueOf: 0,
    },
  ];
}

/**
 * Transfers between two locations of the entity: a transfer_out row at the moving-average cost
 * and a transfer_in row carrying exactly that value, INVENTORY_TRANSFER (inventory to inventory,
 * tagged by location; no P&L) and inventory.transferred, in one transaction (SharedMovementWrites,
 * which may share it with the movements of other requests of the entity).
 */
@Injectable()
export class TransfersService {
  constructor(
    private readonly postings: InventoryPostings,
    private readonly references: StockReferences,
    private readonly serials: SerialsService,
    private readonly movements: SharedMovementWrites,
  ) {}

  async create(input: TransferInput): Promise<TransferResource> {
    if (input.from_location_id === input.to_location_id)
      throw new InventoryError('parameter_invalid', {
        param: 'to_location_id',
        hint: 'A transfer moves stock between two different locations.',
      });
    const product = await this.references.product(input.product_id, 'product_id', input.variant_id);
    await this.references.location(input.from_location_id, 'from_location_id');
    await this.references.location(input.to_location_id, 'to_location_id');
    const serialNumbers = product.serialTracked
      ? assertSerialsForQuantity(input.serial_numbers, input.quantity, 'serial_numbers', product.id)
      : [];
    const entryDate = await this.postings.businessDay();
    const id = newId();
    const movements = transferMovements(id, input, serialNumbers);
    return this.movements.submit<TransferResource>({
      balances: movements,
      movements: () => movements,
      afterValuing: serialNumbers.length
        ? () => this.relocateSerials(product.id, input, serialNumbers)
        : undefined,
      posting: ([, into]) =>
        this.postings.transferRequest(
          id,
          into.value,
          input.from_location_id,
          input.to_location_id,
          `Inventory transfer of ${input.quantity} unit(s)`,
          entryDate,
        ),
      present: ([out, into], rows, journalEntryId) => {
        const resource = this.present(id, input, out, into, serialNumbers, rows, journalEntryId);
        return { result: resource, events: [{ type: 'inventory.transferred', object: resource }] };
      },
    });
  }

  /** The serials move to the destination; each must be available at the source location. */
  private async relocateSerials(
    productId: string,
    input: TransferInput,
    serialNumbers: string[],
  ): Promise<void> {
    const found = await this.serials.find(productId, serialNumbers);
    for (const [i, s] of serialNumbers.entries()) {
      const record = found.get(s);
      if (!record || record.locationId !== input.from_location_id || record.status !== 'available')
        throw new InventoryError('parameter_invalid', {
          param: `serial_numbers[${i}]`,
          hint: record
            ? `Serial '${s}' has status '${record.status}' at location '${record.locationId}'; only available serials at the source location move.`
            : `No serial number '${s}' exists for product '${productId}'.`,
        });
      await this.serials.relocate(record, input.to_location_id);
    }
  }

  private present(
    id: string,
    input: TransferInput,
    out: PlannedMovement,
    into: PlannedMovement,
    serialNumbers: string[],
    rows: readonly InventoryTransactionRecord[],
    journalEntryId: string | null,
  ): TransferResource {
    return {
      id,
      object: 'inventory_transfer',
      product_id: input.product_id,
      variant_id: input.variant_id ?? null,
      from_location_id: input.from_location_id,
      to_location_id: input.to_location_id,
      quantity: input.quantity,
      unit_cost: toJsonNumber(out.unitCostApplied),
      value: toJsonNumber(into.value),
      reason: input.reason ?? null,
      serial_numbers: serialNumbers,
      transaction_ids: { transfer_out: rows[0].id, transfer_in: rows[1].id },
      journal_entry_id: journalEntryId,
      from_balance: toBalanceResource(out.balance),
      to_balance: toBalanceResource(into.balance),
      livemode: out.balance.livemode,
      created_at: new Date().toISOString(),
    };
  }
}
