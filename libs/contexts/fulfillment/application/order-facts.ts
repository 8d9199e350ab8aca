import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { money } from '#platform/domain/money';
import {
  SalesOrders,
  OrderForFulfillment,
  AccountsService,
  isConfirmedSalesOrder,
  LineTerms,
  PostalAddress,
} from '#contexts/sales';
import { StockService } from '#contexts/inventory';
import { FulfillmentError } from '../domain/fulfillment-error';
import { addressLines } from '../domain/label';
import { PackableLine } from '../domain/packing';

/** An order as fulfillment reads it through sales' application services. */
export interface OrderFacts {
  id: string;
  documentType: string;
  orderStatus: string;
  accountId: string | null;
  currency: string;
  revisionPending: boolean;
  revisedAt: string | null;
  lines: (PackableLine & LineTerms & { net: Decimal; tax: Decimal; unitPrice: Decimal })[];
}

type OrderView = OrderForFulfillment;

export function orderFactsOf(order: OrderView): OrderFacts {
  return {
    id: order.id,
    documentType: order.document_type,
    orderStatus: order.order_status,
    accountId: order.account_id,
    currency: order.currency,
    revisionPending: order.revision.revised && !order.revision.acknowledged,
    revisedAt: order.revision.revised_at,
    lines: order.lines.map((l) => {
      const quantity = Math.ceil(l.quantity);
      const net = money(l.subtotal).minus(money(l.discount_total));
      return {
        id: l.id,
        productId: l.product_id,
        quantity,
        net,
        tax: money(l.tax_total),
        unitPrice: quantity > 0 ? net.dividedBy(quantity).toDecimalPlaces(4) : money(0),
      };
    }),
  };
}

/** 422 order_not_confirmed unless the order is a confirmed sales order (packages are made for nothing else). */
export function assertPackable(order: OrderFacts): void {
  if (!isConfirmedSalesOrder(order.documentType, order.orderStatus))
    throw new FulfillmentError('order_not_confirmed', {
      param: 'order_id',
      hint: `Order '${order.id}' is a ${order.documentType} with order_status '${order.orderStatus}'; packages are created for confirmed sales orders only.`,
    });
}

/** Whom an order's goods go to: the customer named in its shipment notification and the address a label ships to. */
export interface Recipient {
  customer: { name: string; email: string | null };
  shipTo: PostalAddress | null;
}

/** Who a label names: the shipping location and the customer, as the lines it prints. */
export interface LabelParties {
  shipFrom: string[];
  shipTo: string[];
}

/** Reads orders, their customers and locations through sales' application services (never its tables). */
@Injectable()
export class OrderReader {
  constructor(
    private readonly orders: SalesOrders,
    private readonly accounts: AccountsService,
    private readonly stock: StockService,
  ) {}

  async order(id: string): Promise<OrderFacts> {
    return orderFactsOf(await this.orders.forFulfillment(id));
  }

  /** The order, or null when the entity and mode have none with this id (the caller says what it looked for). */
  async findOrder(id: string): Promise<OrderFacts | null> {
    const order = await this.orders.findForFulfillment(id);
    return order ? orderFactsOf(order) : null;
  }

  async customer(accountId: string | null): Promise<{ name: string; email: string | null }> {
    if (!accountId) return { name: 'Customer', email: null };
    return this.accounts.contact(accountId);
  }

  /**
   * The order with what a label for it needs of its customer: the order (order()) and, read by
   * the same statement, the customer named in its shipment notification with the address a label
   * ships to (the account's name, email and shipping address; "Customer" and no address for an
   * order without an account).
   */
  async orderWithRecipient(id: string): Promise<{ order: OrderFacts; recipient: Recipient }> {
    const { order, recipient } = await this.orders.forFulfillmentWithRecipient(id);
    return {
      order: orderFactsOf(order),
      recipient: recipient
        ? { customer: { name: recipient.name, email: recipient.email }, shipTo: recipient.shippingAddress }
        : { customer: { name: 'Customer', email: null }, shipTo: null },
    };
  }

  /** The parties of a label shipping from `locationId` to `recipient` (labelParties()). */
  async partiesFor(locationId: string | null, recipient: Recipient): Promise<LabelParties> {
    return this.parties(locationId, recipient.customer.name, recipient.shipTo);
  }

  /**
   * The parties of a label: ship-from is the location's name and address (its name alone
   * without one; nothing without a location), ship-to the customer's name and the account's
   * default shipping address (an order carries no address of its own).
   */
  async labelParties(
    locationId: string | null,
    accountId: string | null,
    customer: string,
  ): Promise<LabelParties> {
    return this.parties(
      locationId,
      customer,
      accountId ? await this.accounts.shippingAddress(accountId) : null,
    );
  }

  private async parties(
    locationId: string | null,
    customer: string,
    shipTo: PostalAddress | null,
  ): Promise<LabelParties> {
    const location = locationId ? await this.stock.locationAddress(locationId) : null;
    return {
      shipFrom: location ? addressLines(location.name, location.address) : [],
      shipTo: addressLines(customer, shipTo),
    };
  }
}
