import { Injectable } from '@nestjs/common';
import { money } from '../../../platform/persistence/money';
import { TransactionHost } from '../../../platform/persistence/transaction-host';
import { InventoryError } from '../domain/inventory-error';
import { assertSerialsForQuantity } from '../domain/serial';
import { BalanceRepository } from '../infrastructure/balance.repository';
import { OrderCommitmentsService } from './order-commitments.service';
import { SerialsService } from './serials.service';
import { StockLedger } from './stock-ledger.service';
import { ReturnLine, ShipmentCost, ShipmentLine } from './stock-movements.types';
import { StockReferences } from './stock-references';

/**
 * Stock moves other contexts make (fulfillment ships packages and receives returns). Every
 * method joins the caller's open transaction and reads entity and mode from the request context;
 * none posts to the ledger: the caller posts with the values returned.
 */
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
        if (!Number.isInteger(line.quantity) || line.quantity <= 0)
          throw new InventoryError('parameter_invalid', {
            param: `lines[${i}].quantity`,
            hint: 'A shipped quantity is a positive integer.',
          });
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
        input.lines.map((l) => ({ orderItemId: l.orderItemId, quantity: l.quantity })),
      );
      const plan = await this.ledger.plan(
        input.lines.map((line, i) => ({
          productId: line.productId,
          variantId: line.variantId ?? null,
          locationId: line.locationId,
          type: 'fulfillment' as const,
          quantity: -line.quantity,
          sourceType: 'package',
          sourceId: input.packageId,
          orderId: input.orderId,
          orderItemId: line.orderItemId,
          serialNumbers: line.serialNumbers ?? [],
          param: `lines[${i}].quantity`,
        })),
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
        if (!Number.isInteger(line.quantity) || line.quantity <= 0)
          throw new InventoryError('parameter_invalid', {
            param: `lines[${i}].quantity`,
            hint: 'A returned quantity is a positive integer.',
          });
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

  /** The moving-average unit cost of the product at the location now ('0.0000' without stock). */
  async currentUnitCost(productId: string, locationId: string, variantId?: string | null): Promise<string> {
    const balance = await this.balances.findByKey({ productId, locationId, variantId: variantId ?? null });
    if (!balance || balance.onHand <= 0) return '0.0000';
    return balance.unitCost.toFixed(4);
  }
}
