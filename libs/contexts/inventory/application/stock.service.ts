import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { money } from '#platform/domain/money';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { InventoryError } from '../domain/inventory-error';
import { assertSerialsForQuantity } from '../domain/serial';
import { BalanceRepository } from '../infrastructure/balance.repository';
import type { LocationAddress } from '../infrastructure/stock-facts.cache';
import { OrderCommitmentsService } from './order-commitments.service';
import { SerialsService } from './serials.service';
import { shipmentMovements, StockLedger } from './stock-ledger.service';
import { BuildLine, ReturnLine, ShipmentCost, ShipmentLine } from './stock-movements.types';
import { StockReferences } from './stock-references';

/**
 * Stock moves other contexts make (fulfillment ships packages and receives returns). Every
 * method joins the caller's open transaction and reads entity and mode from the request context;
 * none posts to the ledger: the caller posts with the values returned.
 */
/** A shipped or returned line moves a positive whole number of units. */
function assertLineQuantity(quantity: number, i: number, moved: 'shipped' | 'returned'): void {
  if (!Number.isInteger(quantity) || quantity <= 0)
    throw new InventoryError('parameter_invalid', {
      param: `lines[${i}].quantity`,
      hint: `A ${moved} quantity is a positive integer.`,
    });
}

@Injectable()
export class StockService {
  constructor(
    private readonly tx: TransactionHost,
    private readonly ledger: StockLedger,
    private readonly balances: BalanceRepository,
    private readonly serials: SerialsService,
    private readonly commitments: OrderCommitmentsService,
    private readonly references: StockReferences,
  ) {}

  /**
   * Where order lines commit stock: the default location of the inventory settings, else the
   * entity's oldest location (null without any). Kept with the entity's stock facts.
   */
  commitLocation(): Promise<string | null> {
    return this.references.commitLocation();
  }

  /** A location's name and address (a label's ship-from), or null when there is none with this id. */
  locationAddress(id: string): Promise<LocationAddress | null> {
    return this.references.locationAddress(id);
  }

  /** 422 serial_not_allocated (hint names the serial, param as given) unless every serial exists for the product and is `allocated` to the order. Moves nothing. */
  async assertSerialsAllocated(input: {
    orderId: string;
    productId: string;
    serialNumbers: string[];
    param: string;
  }): Promise<void> {
    await this.tx.run(async () => {
      const found = await this.serials.find(input.productId, input.serialNumbers);
      for (const serialNumber of input.serialNumbers) {
        const record = found.get(serialNumber);
        if (!record || record.status !== 'allocated' || record.orderId !== input.orderId) {
          throw new InventoryError('serial_not_allocated', {
            param: input.param,
            hint: record
              ? `Serial '${serialNumber}' has status '${record.status}'${record.orderId ? ` on order '${record.orderId}'` : ''}; it must be allocated to order '${input.orderId}'.`
              : `Serial '${serialNumber}' does not exist for product '${input.productId}'.`,
          });
        }
      }
    });
  }

  /**
   * Ships a package: one `fulfillment` ledger row per line (source 'package') at the moving-average
   * cost; lowers on_hand and the allocation of the order line; serials allocated -> sold; stock
   * events. 422 insufficient_stock unless the entity allows negative stock.
   */
  async shipPackage(input: {
    packageId: string;
    orderId: string;
    lines: ShipmentLine[];
  }): Promise<ShipmentCost> {
    return this.tx.run(async () => {
      for (const [i, line] of input.lines.entries()) {
        assertLineQuantity(line.quantity, i, 'shipped');
        const product = await this.references.product(line.productId, `lines[${i}].product_id`);
        if (product.serialTracked) {
          const serials = assertSerialsForQuantity(
            line.serialNumbers,
            line.quantity,
            `lines[${i}].serial_numbers`,
            product.id,
          );
          await this.assertSerialsAllocated({
            orderId: input.orderId,
            productId: line.productId,
            serialNumbers: serials,
            param: `lines[${i}].serial_numbers`,
          });
          await this.serials.move({
            productId: line.productId,
            serialNumbers: serials,
            action: 'sell',
            param: `lines[${i}].serial_numbers`,
            orderId: input.orderId,
          });
        }
      }
      const released = await this.commitments.release(
        input.orderId,
        'allocated',
        input.lines.map((l) => ({
          orderItemId: l.orderItemId,
          quantity: l.quantity,
          locationId: l.locationId,
        })),
      );
      const movements = shipmentMovements(input.lines, {
        sourceType: 'package',
        sourceId: input.packageId,
        orderId: input.orderId,
      });
      const plan = await this.ledger.plan(
        movements.map((m, i) => ({ ...m, serialNumbers: input.lines[i].serialNumbers ?? [] })),
        released,
      );
      await this.ledger.apply(plan);
      const lines = plan.movements.map((m) => ({
        orderItemId: m.orderItemId!,
        productId: m.productId,
        quantity: -m.quantity,
        unitCost: m.unitCostApplied.toFixed(4),
        value: m.value.negated().toFixed(4),
      }));
      const total = plan.movements.reduce((sum, m) => sum.minus(m.value), money(0));
      return { lines, totalCost: total.toFixed(4) };
    });
  }

  /**
   * Returns goods: `return` ledger rows at the given unit cost, back into on_hand; serials
   * sold -> returned -> disposition (returned_at). Posts nothing: the caller posts with totalValue.
   */
  async receiveReturn(input: {
    returnId: string;
    orderId: string;
    lines: ReturnLine[];
  }): Promise<{ totalValue: string }> {
    return this.tx.run(async () => {
      for (const [i, line] of input.lines.entries()) {
        assertLineQuantity(line.quantity, i, 'returned');
        const product = await this.references.product(line.productId, `lines[${i}].product_id`);
        if (!product.serialTracked) continue;
        const param = `lines[${i}].serial_numbers`;
        const serials = assertSerialsForQuantity(line.serialNumbers, line.quantity, param, product.id);
        const returned = await this.serials.move({
          productId: line.productId,
          serialNumbers: serials,
          action: 'return',
          param,
          orderId: input.orderId,
          locationId: line.locationId,
        });
        const disposition = line.disposition ?? 'available';
        const action =
          disposition === 'available' ? 'restock' : disposition === 'damaged' ? 'damage' : 'quarantine';
        for (const record of returned) await this.serials.apply(record, action, {});
      }
      const plan = await this.ledger.plan(
        input.lines.map((line) => ({
          productId: line.productId,
          variantId: line.variantId ?? null,
          locationId: line.locationId,
          type: 'return' as const,
          quantity: line.quantity,
          unitCost: money(line.unitCost),
          sourceType: 'return',
          sourceId: input.returnId,
          orderId: input.orderId,
          orderItemId: line.orderItemId ?? null,
          serialNumbers: line.serialNumbers ?? [],
        })),
      );
      await this.ledger.apply(plan);
      return { totalValue: StockLedger.totalValue(plan.movements).toFixed(4) };
    });
  }

  /**
   * Records a build (assembly of a kit): `build_consumption` rows take the components out at their
   * moving-average cost, `build_output` rows bring the built products in carrying exactly the
   * consumed value (split by quantity, the last output taking the remainder); serials of
   * components available -> consumed_in_manufacturing, serials of outputs created available.
   * Posts nothing (the value stays in inventory); the caller posts MANUFACTURING if its chart
   * separates components from finished goods. 422 insufficient_stock as for shipments.
   */
  async recordBuild(input: {
    buildId: string;
    locationId: string;
    consumptions: BuildLine[];
    outputs: BuildLine[];
  }): Promise<{ consumedValue: string; outputValue: string }> {
    return this.tx.run(async () => {
      if (input.outputs.length === 0)
        throw new InventoryError('parameter_invalid', {
          param: 'outputs',
          hint: 'A build makes at least one product.',
        });
      const lines = [
        ...input.consumptions.map((l, i) => ({ line: l, param: `consumptions[${i}]`, out: true })),
        ...input.outputs.map((l, i) => ({ line: l, param: `outputs[${i}]`, out: false })),
      ];
      for (const { line, param, out } of lines) {
        if (!Number.isInteger(line.quantity) || line.quantity <= 0)
          throw new InventoryError('parameter_invalid', {
            param: `${param}.quantity`,
            hint: 'A build quantity is a positive integer.',
          });
        const product = await this.references.product(line.productId, `${param}.product_id`);
        if (!product.serialTracked) continue;
        const serials = assertSerialsForQuantity(
          line.serialNumbers,
          line.quantity,
          `${param}.serial_numbers`,
          product.id,
        );
        if (out)
          await this.serials.move({
            productId: product.id,
            serialNumbers: serials,
            action: 'consume',
            param: `${param}.serial_numbers`,
            expectAt: input.locationId,
          });
        else
          await this.serials.receive({
            productId: product.id,
            variantId: line.variantId ?? null,
            locationId: input.locationId,
            serialNumbers: serials,
            param: `${param}.serial_numbers`,
          });
      }
      const consumedCount = input.consumptions.length;
      const outputUnits = input.outputs.reduce((n, l) => n + l.quantity, 0);
      const common = { locationId: input.locationId, sourceType: 'build', sourceId: input.buildId };
      const plan = await this.ledger.plan([
        ...input.consumptions.map((l, i) => ({
          ...common,
          productId: l.productId,
          variantId: l.variantId ?? null,
          type: 'build_consumption' as const,
          quantity: -l.quantity,
          serialNumbers: l.serialNumbers ?? [],
          param: `consumptions[${i}].quantity`,
        })),
        ...input.outputs.map((l, i) => ({
          ...common,
          productId: l.productId,
          variantId: l.variantId ?? null,
          type: 'build_output' as const,
          quantity: l.quantity,
          serialNumbers: l.serialNumbers ?? [],
          valueFrom: (earlier: readonly { value: Decimal }[]) => {
            const consumed = earlier.slice(0, consumedCount).reduce((sum, m) => sum.minus(m.value), money(0));
            if (i === input.outputs.length - 1) {
              const given = earlier.slice(consumedCount).reduce((sum, m) => sum.plus(m.value), money(0));
              return consumed.minus(given);
            }
            return consumed.times(l.quantity).dividedBy(outputUnits).toDecimalPlaces(4);
          },
        })),
      ]);
      await this.ledger.apply(plan);
      const consumed = plan.movements
        .slice(0, consumedCount)
        .reduce((sum, m) => sum.minus(m.value), money(0));
      const output = plan.movements.slice(consumedCount).reduce((sum, m) => sum.plus(m.value), money(0));
      return { consumedValue: consumed.toFixed(4), outputValue: output.toFixed(4) };
    });
  }

  /** The moving-average unit cost of the product at the location now ('0.0000' without stock). */
  async currentUnitCost(productId: string, locationId: string, variantId?: string | null): Promise<string> {
    const balance = await this.balances.findByKey({ productId, locationId, variantId: variantId ?? null });
    if (!balance || balance.onHand <= 0) return '0.0000';
    return balance.unitCost.toFixed(4);
  }
}
