import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { money } from '#platform/persistence/money';
import { OrdersService, AccountsService, isConfirmedSalesOrder } from '#contexts/sales';
import { FulfillmentError } from '../domain/fulfillment-error';
import { LineMoney } from '../domain/revenue';
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
  lines: (PackableLine & LineMoney & { unitPrice: Decimal })[];
}

type OrderView = Awaited<ReturnType<OrdersService['withLines']>>;

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

/** Reads orders and their customers through sales (never its tables). */
@Injectable()
export class OrderReader {
  constructor(
    private readonly orders: OrdersService,
    private readonly accounts: AccountsService,
  ) {}

  async order(id: string): Promise<OrderFacts> {
    return orderFactsOf(await this.orders.withLines(id));
  }

  async customer(accountId: string | null): Promise<{ name: string; email: string | null }> {
    if (!accountId) return { name: 'Customer', email: null };
    return this.accounts.contact(accountId);
  }
}
