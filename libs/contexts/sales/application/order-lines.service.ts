import { Injectable } from '@nestjs/common';
import { notFound } from '#platform/errors/domain-error';
import { money } from '#platform/domain/money';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { assertLineCapacity, OrderLineInput, orderTransition } from '../domain/order';
import { lineAmounts } from '../domain/order-totals';
import { OrderLineRecord } from '../infrastructure/order.entity';
import { OrderLineRepository } from '../infrastructure/order-line.repository';
import { OrderRepository } from '../infrastructure/order.repository';
import { KitLines } from './kit-lines';
import { OrderChanges, stateOf } from './order-changes.service';
import { OrderLinePricing } from './order-line-pricing.service';
import { OrderResource } from './order.presenter';
import { RevenueRecognition } from './revenue-recognition.service';

/** The lines of an order document: added, changed and removed while the order may be edited. */
@Injectable()
export class OrderLines {
  constructor(
    private readonly tx: TransactionHost,
    private readonly orders: OrderRepository,
    private readonly lines: OrderLineRepository,
    private readonly changes: OrderChanges,
    private readonly kitLines: KitLines,
    private readonly linePricing: OrderLinePricing,
    private readonly revenue: RevenueRecognition,
  ) {}

  /**
   * Adds a line (a kit line with its components) after the order's last line; a refused field is
   * named as the body names it (`product_id`). Its cost does not grow with the order: the cap
   * and the new line's position come from one count, the totals from one sum in the
   * database, the stock commitments of the new lines alone move; only the answer (the order
   * with its lines) reads every line, once.
   */
  async addLine(orderId: string, input: OrderLineInput): Promise<OrderResource> {
    return this.tx.run(async () => {
      const record = await this.orders.getForUpdate(orderId);
      orderTransition('edit', stateOf(record));
      const held = await this.lines.countsOf(record.id);
      assertLineCapacity(held.callerLines, 1);
      const before = this.changes.fieldsOf(record);
      const [line] = await this.linePricing.priceLines(record, [input], 'line', held.nextPosition);
      const inserted = await this.lines.insertMany(await this.kitLines.expand([line], held.nextPosition));
      await this.changes.recompute(record);
      return this.changes.saveChange(record, before, true, 'order.line.added', inserted);
    });
  }

  async updateLine(orderId: string, lineId: string, input: Partial<OrderLineInput>): Promise<OrderResource> {
    return this.tx.run(async () => {
      const record = await this.orders.getForUpdate(orderId);
      const line = await this.lineOf(record.id, lineId);
      orderTransition('edit', stateOf(record));
      const before = this.changes.fieldsOf(record);
      const productChanged = input.product_id !== undefined && input.product_id !== line.productId;
      const changesTerms =
        productChanged ||
        [
          input.quantity,
          input.unit_price,
          input.discount_percent,
          input.discount_amount,
          input.tax_rate,
        ].some((v) => v !== undefined);
      if (changesTerms)
        await this.revenue.assertLinesUnrecognised(record.id, [line.id], 'repriced or resized');
      if (productChanged || input.unit_price !== undefined) {
        // A new product or an explicit price prices the line again; otherwise it keeps the price (and policy) it was created with.
        const [priced] = await this.linePricing.priceLines(
          record,
          [
            {
              product_id: productChanged ? input.product_id : line.productId,
              description: input.description ?? (productChanged ? undefined : line.description),
              quantity: input.quantity ?? line.quantity.toNumber(),
              unit_price: input.unit_price,
              discount_percent: input.discount_percent ?? line.discountPercent.toNumber(),
              discount_amount: input.discount_amount ?? line.discountAmount.toNumber(),
              tax_rate: input.tax_rate ?? line.taxRate.toNumber(),
            },
          ],
          'line',
          line.position,
        );
        Object.assign(line, priced);
      } else {
        if (input.description !== undefined) line.description = input.description;
        if (input.quantity !== undefined) line.quantity = money(input.quantity);
        if (input.discount_percent !== undefined) line.discountPercent = money(input.discount_percent);
        if (input.discount_amount !== undefined) line.discountAmount = money(input.discount_amount);
        if (input.tax_rate !== undefined) line.taxRate = money(input.tax_rate);
        Object.assign(
          line,
          lineAmounts({
            quantity: line.quantity,
            unitPrice: line.unitPrice,
            discountPercent: line.discountPercent,
            discountAmount: line.discountAmount,
            taxRate: line.taxRate,
          }),
        );
      }
      await this.lines.save(line);
      if (productChanged || input.quantity !== undefined) await this.kitLines.resync(line);
      await this.changes.recompute(record);
      return this.changes.saveChange(record, before, true, 'order.line.updated');
    });
  }

  async removeLine(orderId: string, lineId: string): Promise<OrderResource> {
    return this.tx.run(async () => {
      const record = await this.orders.getForUpdate(orderId);
      const line = await this.lineOf(record.id, lineId);
      orderTransition('edit', stateOf(record));
      await this.revenue.assertLinesUnrecognised(record.id, [line.id], 'removed');
      const before = this.changes.fieldsOf(record);
      await this.lines.delete(line);
      await this.changes.recompute(record);
      return this.changes.saveChange(record, before, true, 'order.line.removed');
    });
  }

  private async lineOf(orderId: string, lineId: string): Promise<OrderLineRecord> {
    const line = await this.lines.findById(lineId);
    if (!line || line.orderId !== orderId) throw notFound('order line', lineId);
    return line;
  }
}
