import { Injectable } from '@nestjs/common';
import { notFound } from '#platform/errors/domain-error';
import { ListPage } from '#platform/http/list/paginate';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { SalesError } from '../domain/sales-error';
import { OrderRecord } from '../infrastructure/order.entity';
import { OrderLineRepository } from '../infrastructure/order-line.repository';
import { OrderRepository } from '../infrastructure/order.repository';
import { CommittedOrderLine, committedLine } from './order-commitments.port';
import { OrderResource } from './order.presenter';
import { OrderInput, OrderListQuery, OrdersService } from './orders.service';
import { CancelOrder } from './orders/cancel-order';
import { ConfirmOrder } from './orders/confirm-order';
import { SalesOrders } from './sales-orders';

/** A purchase-order line as receiving sees it. */
export interface PurchaseOrderLineView extends CommittedOrderLine {
  /** What one unit costs on the order (decimal string). */
  unitPrice: string;
}

/**
 * Purchase orders (the `purchase_order` document type) for purchasing and for the context that
 * receives their goods: reads and writes restricted to the type, the locked lines of a PO being
 * received, and marking a PO fully received (fulfilled).
 */
@Injectable()
export class PurchaseOrderReceivingService {
  constructor(
    private readonly tx: TransactionHost,
    private readonly orders: OrderRepository,
    private readonly lines: OrderLineRepository,
    private readonly documents: OrdersService,
    private readonly confirmOrder: ConfirmOrder,
    private readonly cancelOrder: CancelOrder,
    private readonly salesOrders: SalesOrders,
  ) {}

  list(query: OrderListQuery, url: string): Promise<ListPage<OrderResource>> {
    return this.documents.list({ ...query, document_type: 'purchase_order' }, url);
  }

  async retrieve(id: string): Promise<OrderResource> {
    await this.purchaseOrder(id);
    return this.documents.retrieve(id);
  }

  create(input: OrderInput): Promise<OrderResource> {
    if (input.document_type !== undefined && input.document_type !== 'purchase_order')
      throw new SalesError('parameter_invalid', {
        param: 'document_type',
        hint: 'This route creates purchase orders only; omit document_type or send purchase_order.',
      });
    return this.documents.create({ ...input, document_type: 'purchase_order' });
  }

  async confirm(id: string): Promise<OrderResource> {
    await this.purchaseOrder(id);
    return this.confirmOrder.confirm(id);
  }

  async cancel(id: string): Promise<OrderResource> {
    await this.purchaseOrder(id);
    return this.cancelOrder.cancel(id);
  }

  /**
   * The PO locked for the rest of the transaction, with its lines; 404 unless a purchase order
   * of the caller; 409 invalid_state unless confirmed (receivable).
   */
  async lockForReceiving(
    id: string,
  ): Promise<{ id: string; orderStatus: string; lines: PurchaseOrderLineView[] }> {
    const record = await this.purchaseOrder(id, true);
    if (record.orderStatus !== 'confirmed')
      throw new SalesError('invalid_state', {
        hint: `This purchase_order has order_status '${record.orderStatus}'; goods can be received only while it is 'confirmed'.`,
      });
    const lines = await this.lines.ofOrder(record.id);
    return {
      id: record.id,
      orderStatus: record.orderStatus,
      lines: lines.map((l) => ({ ...committedLine(l), unitPrice: l.unitPrice.toFixed(4) })),
    };
  }

  /** Marks a fully received PO fulfilled (order.updated); returns it. */
  markReceived(id: string): Promise<OrderResource> {
    return this.salesOrders.markFulfilled(id);
  }

  private async purchaseOrder(id: string, lock = false): Promise<OrderRecord> {
    return this.tx.run(async () => {
      const record = await this.orders.findById(id);
      if (!record || record.documentType !== 'purchase_order') throw notFound('purchase order', id);
      return lock ? this.orders.getForUpdate(id) : record;
    });
  }
}
