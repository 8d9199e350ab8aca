import { Injectable } from '@nestjs/common';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { notFound } from '#platform/errors/domain-error';
import { isoOrNull } from '#platform/http/resource-fields';
import {
  assertReadyForFulfillment,
  DocumentType,
  isRevisionPending,
  OrderStatus,
  orderTransition,
} from '../domain/order';
import { SalesError } from '../domain/sales-error';
import { OrderRepository, OrderWithLineAmounts } from '../infrastructure/order.repository';
import type { PostalAddress } from '#platform/reference-lists/postal-address';
import { OrderCommitmentsRegistry } from './order-commitments.port';
import { OrderChanges, revisionOf, stateOf } from './order-changes.service';
import { OrderLineResource, OrderResource } from './order.presenter';
import { OrderInput, OrdersService } from './orders.service';
import { CancelOrder } from './orders/cancel-order';
import { ConfirmOrder } from './orders/confirm-order';

export type { OrderInput, OrderLineResource, OrderResource };

/** An order document with its lines, as another context reads it (no tag ids). */
export type SalesOrderView = Omit<OrderResource, 'tag_ids'>;

/** What fulfillment reads of an order: its state, revision and lines' quantities and amounts, as SalesOrderView states them. */
export type OrderForFulfillment = Pick<
  SalesOrderView,
  'id' | 'document_type' | 'order_status' | 'account_id' | 'currency'
> & {
  revision: Pick<SalesOrderView['revision'], 'revised' | 'revised_at' | 'acknowledged'>;
  lines: Pick<
    OrderLineResource,
    'id' | 'product_id' | 'quantity' | 'subtotal' | 'discount_total' | 'tax_total'
  >[];
};

/**
 * Sales' order documents as the other contexts use them: fulfillment, returns, inventory's
 * serial allocations, the storefront import and the seed contributors. Each method is one
 * business step of sales (a read, or a write in the caller's transaction when there is one); the
 * routes of /orders use the order services and use cases of sales directly.
 */
@Injectable()
export class SalesOrders {
  constructor(
    private readonly tx: TransactionHost,
    private readonly orders: OrderRepository,
    private readonly changes: OrderChanges,
    private readonly commitments: OrderCommitmentsRegistry,
    private readonly documents: OrdersService,
    private readonly confirmOrder: ConfirmOrder,
    private readonly cancelOrder: CancelOrder,
  ) {}

  /** The order and its lines (404 when absent). */
  async withLines(id: string): Promise<SalesOrderView> {
    const order = await this.orders.getById(id);
    return this.changes.presentWithLines(order, await this.changes.linesOf(id));
  }

  /**
   * The order's state and its lines' quantities and amounts as fulfillment packs and ships them
   * (404 when absent): one read, without the rest of the order's presentation.
   */
  async forFulfillment(id: string): Promise<OrderForFulfillment> {
    const order = await this.findForFulfillment(id);
    if (!order) throw notFound('order', id);
    return order;
  }

  /**
   * forFulfillment() with the recipient of the order's goods (its account's name, email and
   * shipping address, as AccountsService.recipient answers them; null for an order without an
   * account), by the same one read; 404 when the order or its account is absent.
   */
  async forFulfillmentWithRecipient(id: string): Promise<{
    order: OrderForFulfillment;
    recipient: { name: string; email: string | null; shippingAddress: PostalAddress | null } | null;
  }> {
    const row = await this.orders.withLineAmounts(id, true);
    if (!row) throw notFound('order', id);
    if (row.account_id && !row.recipient) throw notFound('account', row.account_id);
    const recipient = row.recipient
      ? {
          name: row.recipient.name,
          email: row.recipient.email,
          shippingAddress: row.recipient.shipping_address,
        }
      : null;
    return { order: this.fulfillmentView(row), recipient };
  }

  /** forFulfillment(), or null when the entity and mode have no order with this id. */
  async findForFulfillment(id: string): Promise<OrderForFulfillment | null> {
    const row = await this.orders.withLineAmounts(id);
    return row ? this.fulfillmentView(row) : null;
  }

  private fulfillmentView(row: OrderWithLineAmounts): OrderForFulfillment {
    return {
      id: row.id,
      document_type: row.document_type,
      order_status: row.order_status,
      account_id: row.account_id,
      currency: row.currency,
      revision: {
        revised: row.revised_at !== null,
        revised_at: isoOrNull(row.revised_at),
        acknowledged: !isRevisionPending({
          orderStatus: row.order_status as OrderStatus,
          sentToCustomerAt: row.sent_to_customer_at,
          revisedAt: row.revised_at,
          revisionAcknowledgedAt: row.revision_acknowledged_at,
        }),
      },
      lines: row.lines.map((l) => ({
        id: l.id,
        product_id: l.product_id,
        quantity: Number(l.quantity),
        subtotal: Number(l.subtotal),
        discount_total: Number(l.discount_total),
        tax_total: Number(l.tax_total),
      })),
    };
  }

  /** The order and its lines, or null when the entity and mode have none with this id. */
  async findWithLines(id: string): Promise<SalesOrderView | null> {
    const order = await this.orders.findById(id);
    return order ? this.changes.presentWithLines(order, await this.changes.linesOf(id)) : null;
  }

  /**
   * A draft document, by the rules and with the events of `POST /orders`; `origin` links a
   * document made from another (a return from its sales order) to its source.
   */
  create(input: OrderInput, origin: { sourceOrderId?: string } = {}): Promise<OrderResource> {
    return this.documents.create(input, origin);
  }

  /** `POST /orders/{id}/confirm`: confirms a draft (an invoice is issued). */
  confirm(id: string): Promise<OrderResource> {
    return this.confirmOrder.confirm(id);
  }

  /** `POST /orders/{id}/cancel`. */
  cancel(id: string): Promise<OrderResource> {
    return this.cancelOrder.cancel(id);
  }

  /** `POST /orders/{id}/convert`: the new draft document. */
  convert(id: string): Promise<OrderResource> {
    return this.documents.convert(id);
  }

  /** Marks a confirmed sales order, return or purchase order fulfilled (order.updated). */
  markFulfilled(id: string): Promise<OrderResource> {
    return this.tx.run(async () => {
      const order = await this.orders.getForUpdate(id);
      order.orderStatus = orderTransition('fulfill', stateOf(order));
      order.fulfilledAt = new Date();
      const resource = await this.changes.presentOne(await this.orders.save(order));
      await this.commitments.orderChanged(order);
      await this.changes.publish('order.updated', resource, {
        order_status: 'confirmed',
        fulfilled_at: null,
      });
      return resource;
    });
  }

  /** 422 order_not_confirmed unless a confirmed sales order, 409 revision_unacknowledged while a revision is pending. */
  async assertReadyForFulfillment(orderId: string): Promise<void> {
    const order = await this.orders.findById(orderId);
    if (!order)
      throw new SalesError('not_found', {
        param: 'order_id',
        hint: `No order with id '${orderId}' exists for this entity and mode.`,
      });
    assertReadyForFulfillment({
      ...revisionOf(order),
      documentType: order.documentType as DocumentType,
      id: order.id,
    });
  }
}
