import { Injectable } from '@nestjs/common';
import { notFound } from '#platform/errors/domain-error';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { isConfirmedSalesOrder, SalesOrders } from '#contexts/sales';
import { InventoryError } from '../domain/inventory-error';
import { SerialNumberRecord } from '../infrastructure/inventory.entities';
import { SerialResource, toSerialResource } from './serial.presenter';
import { SerialsService } from './serials.service';
import { StockReferences } from './stock-references';

export interface LineSerialsResource {
  object: 'order_line_serials';
  order_id: string;
  order_item_id: string;
  product_id: string;
  quantity: number;
  serials: SerialResource[];
}

/** The serial numbers a request allocates to, or releases from, an order line. */
export interface SerialAllocation {
  serial_numbers: string[];
}

/**
 * Serials of confirmed sales-order lines: allocating moves `available` serials of the line's
 * product to `allocated` (at most the line's quantity); deallocating moves them back.
 */
@Injectable()
export class SerialAllocationsService {
  constructor(
    private readonly tx: TransactionHost,
    private readonly orders: SalesOrders,
    private readonly serials: SerialsService,
    private readonly references: StockReferences,
  ) {}

  async allocate(orderId: string, lineId: string, input: SerialAllocation): Promise<LineSerialsResource> {
    const serialNumbers = input.serial_numbers;
    return this.tx.run(async () => {
      const line = await this.line(orderId, lineId);
      const allocated = await this.serials.ofOrder(orderId, lineId);
      const current = allocated.filter((s) => s.status === 'allocated').length;
      if (current + serialNumbers.length > line.quantity)
        throw new InventoryError('quantity_exceeds_remaining', {
          param: 'serial_numbers',
          hint: `Line '${lineId}' has quantity ${line.quantity} and ${current} serial(s) allocated; at most ${Math.max(0, line.quantity - current)} more can be allocated.`,
          details: { remaining_quantity: Math.max(0, line.quantity - current) },
        });
      await this.serials.move({
        productId: line.productId,
        serialNumbers,
        action: 'allocate',
        param: 'serial_numbers',
        orderId,
        orderItemId: lineId,
      });
      return this.present(orderId, lineId, line);
    });
  }

  async deallocate(orderId: string, lineId: string, input: SerialAllocation): Promise<LineSerialsResource> {
    const serialNumbers = input.serial_numbers;
    return this.tx.run(async () => {
      const line = await this.line(orderId, lineId, false);
      const found = await this.serials.find(line.productId, serialNumbers);
      serialNumbers.forEach((s, i) => {
        const record = found.get(s);
        if (!record || record.status !== 'allocated' || record.orderItemId !== lineId)
          throw new InventoryError('serial_not_allocated', {
            param: `serial_numbers[${i}]`,
            hint: record
              ? `Serial '${s}' has status '${record.status}' and is not allocated to line '${lineId}'.`
              : `Serial '${s}' does not exist for product '${line.productId}'.`,
          });
      });
      for (const s of serialNumbers) await this.serials.apply(found.get(s)!, 'deallocate', {});
      return this.present(orderId, lineId, line);
    });
  }

  private async line(orderId: string, lineId: string, mustBeConfirmed = true) {
    const order = await this.orders.withLines(orderId);
    const line = order.lines.find((l) => l.id === lineId);
    if (!line) throw notFound('order line', lineId);
    if (mustBeConfirmed && !isConfirmedSalesOrder(order.document_type, order.order_status))
      throw new InventoryError('order_not_confirmed', {
        hint: `Order '${orderId}' is a ${order.document_type} with order_status '${order.order_status}'; serials are allocated to confirmed sales orders only.`,
      });
    if (!line.product_id)
      throw new InventoryError('parameter_invalid', { hint: `Line '${lineId}' has no product.` });
    const product = await this.references.product(line.product_id, 'line_id');
    if (!product.serialTracked)
      throw new InventoryError('parameter_invalid', {
        param: 'serial_numbers',
        hint: `Product '${product.id}' of line '${lineId}' is not serial-tracked.`,
      });
    return { productId: product.id, quantity: Math.ceil(Number(line.quantity)) };
  }

  private async present(orderId: string, lineId: string, line: { productId: string; quantity: number }) {
    const serials: SerialNumberRecord[] = (await this.serials.ofOrder(orderId, lineId)).filter(
      (s) => s.status === 'allocated',
    );
    return {
      object: 'order_line_serials' as const,
      order_id: orderId,
      order_item_id: lineId,
      product_id: line.productId,
      quantity: line.quantity,
      serials: serials.map(toSerialResource),
    };
  }
}
