import { Injectable } from '@nestjs/common';
import { OrderLineRecord, OrderRecord } from '../infrastructure/order.entity';
import { OrderLineRepository } from '../infrastructure/order-line.repository';

/** One line of an order as a stock-keeping context sees it. */
export interface CommittedOrderLine {
  orderItemId: string;
  productId: string | null;
  /** Whole units (a fractional line quantity is rounded up). */
  quantity: number;
}

/** A line as the commitments see it: whole units of a product. */
export const committedLine = (l: OrderLineRecord): CommittedOrderLine => ({
  orderItemId: l.id,
  productId: l.productId,
  quantity: Math.ceil(l.quantity.toNumber()),
});

/** An order document after a change of its status or lines. */
export interface CommittedOrder {
  orderId: string;
  documentType: string;
  orderStatus: string;
  lines: CommittedOrderLine[];
}

/**
 * What sales tells the context that keeps stock commitments (allocated quantities of confirmed
 * sales lines, on-order quantities of confirmed purchase orders): called inside the transaction
 * that confirmed, cancelled, closed or changed the lines of an order, so the commitments are
 * current at commit. The inventory context implements it and registers it at start-up; sales
 * never imports inventory.
 */
export interface OrderCommitmentsListener {
  orderChanged(order: CommittedOrder): Promise<void>;
  /**
   * Some lines of the order were added or changed, and no other: `order.lines` holds only those,
   * so the cost follows them, not the size of the order.
   */
  linesChanged(order: CommittedOrder): Promise<void>;
}

/** Holds the registered listeners; sales calls `orderChanged` after each change that can move a commitment. */
@Injectable()
export class OrderCommitmentsRegistry {
  private readonly listeners: OrderCommitmentsListener[] = [];

  constructor(private readonly lines: OrderLineRepository) {}

  register(listener: OrderCommitmentsListener): void {
    this.listeners.push(listener);
  }

  /** Tells every listener the order's current status and lines (in the caller's transaction). */
  async orderChanged(order: OrderRecord): Promise<void> {
    if (this.listeners.length === 0) return;
    if (order.documentType !== 'sales_order' && order.documentType !== 'purchase_order') return;
    const lines = await this.lines.ofOrder(order.id);
    const committed: CommittedOrder = {
      orderId: order.id,
      documentType: order.documentType,
      orderStatus: order.orderStatus,
      lines: lines.map(committedLine),
    };
    for (const listener of this.listeners) await listener.orderChanged(committed);
  }

  /** Tells every listener that only `lines` of the order were added or changed (in the caller's transaction). */
  async linesChanged(order: OrderRecord, lines: readonly OrderLineRecord[]): Promise<void> {
    if (this.listeners.length === 0 || lines.length === 0) return;
    if (order.documentType !== 'sales_order' && order.documentType !== 'purchase_order') return;
    const committed: CommittedOrder = {
      orderId: order.id,
      documentType: order.documentType,
      orderStatus: order.orderStatus,
      lines: lines.map(committedLine),
    };
    for (const listener of this.listeners) await listener.linesChanged(committed);
  }
}
