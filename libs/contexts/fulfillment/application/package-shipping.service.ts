import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { EventPublisher } from '#platform/events/event-publisher';
import { money } from '#platform/persistence/money';
import { SalesOrders, RevenueRecognition } from '#contexts/sales';
import { StockService } from '#contexts/inventory';
import { FulfillmentError } from '../domain/fulfillment-error';
import { packageTransition, PackageStatus } from '../domain/package';
import { allLinesShipped } from '../domain/packing';
import { PackageItemRecord, PackageRecord } from '../infrastructure/fulfillment.entities';
import { PackageItemRepository } from '../infrastructure/package-item.repository';
import { PackageRepository } from '../infrastructure/package.repository';
import { FulfillmentPostings } from './fulfillment-postings.service';
import { OrderFacts, OrderReader } from './order-facts';
import { PackageViews } from './package-views.service';
import { ShipmentMessage, ShipmentNotifications } from './shipment-notifications.service';

/** Statuses whose units have left the warehouse. */
export const SHIPPED_STATUSES = ['shipped', 'delivered', 'returned'] as const;

/**
 * Ships a package inside the caller's transaction: stock and serials leave through inventory,
 * FULFILLMENT is posted, a shipment notification is composed, `fulfillment.shipped` is emitted
 * and the order becomes fulfilled once every line has shipped. Returns the notification to
 * queue after commit.
 */
@Injectable()
export class PackageShipping {
  constructor(
    private readonly packages: PackageRepository,
    private readonly items: PackageItemRepository,
    private readonly stock: StockService,
    private readonly postings: FulfillmentPostings,
    private readonly notifications: ShipmentNotifications,
    private readonly reader: OrderReader,
    private readonly orders: SalesOrders,
    private readonly views: PackageViews,
    private readonly events: EventPublisher,
    private readonly revenue: RevenueRecognition,
  ) {}

  async shipInside(pkg: PackageRecord, items: PackageItemRecord[]): Promise<{ notificationId: string }> {
    const order = await this.reader.order(pkg.orderId);
    const plan = await this.prepare(pkg, items, order);
    for (const item of items) await this.items.save(item);
    await this.packages.save(pkg);
    await this.postings.fulfillment(pkg.id, pkg.packageNumber, plan.cost, plan.net, plan.tax);
    const customer = await this.reader.customer(order.accountId);
    const notificationId = await this.notifications.compose(this.message(pkg, order, customer));
    await this.events.publish(
      'fulfillment.shipped',
      await this.views.presentOne(pkg),
      plan.previousAttributes,
    );
    if (plan.orderFulfilled) await this.orders.markFulfilled(order.id);
    return { notificationId };
  }

  /**
   * The stock half of shipping: units and serials leave through inventory, the shipped units are
   * recognised by sales' revenue rule, and the package and its items are changed in memory
   * (status `shipped`, `shipped_at`, cost of goods, unit costs), not saved. Answers the amounts to
   * post and whether the order is now fully shipped.
   * `shippedBefore` is the units per line already shipped, when the caller read them under the
   * order's lock.
   */
  async prepare(
    pkg: PackageRecord,
    items: PackageItemRecord[],
    order: OrderFacts,
    shippedBefore?: Map<string, number>,
  ): Promise<ShipmentPlan> {
    packageTransition('ship', pkg.status, pkg.id);
    const previous = pkg.status;
    if (items.length === 0)
      throw new FulfillmentError('invalid_state', {
        hint: `Package '${pkg.id}' has no items; an empty package cannot ship.`,
      });
    if (!pkg.locationId)
      throw new FulfillmentError('parameter_missing', {
        param: 'location_id',
        hint: 'The package has no location to ship from; set location_id.',
      });
    shippedBefore ??= await this.items.unitsByLine(order.id, SHIPPED_STATUSES);
    const cost = await this.stock.shipPackage({
      packageId: pkg.id,
      orderId: order.id,
      lines: items.map((i) => ({
        orderItemId: i.orderItemId,
        productId: i.productId,
        locationId: pkg.locationId!,
        quantity: i.quantity,
        serialNumbers: i.serialNumbers.length ? i.serialNumbers : undefined,
      })),
    });
    const running = new Map(shippedBefore);
    items.forEach((item, index) => {
      const costLine = cost.lines[index];
      if (costLine) item.unitCost = money(costLine.unitCost);
      running.set(item.orderItemId, (running.get(item.orderItemId) ?? 0) + item.quantity);
    });
    // What the shipped units recognise is the sales context's rule (units billed first recognise nothing now).
    const { recognized } = await this.revenue.shipped(
      order.id,
      pkg.id,
      items
        .filter((i) => order.lines.some((l) => l.id === i.orderItemId))
        .map((i) => ({ orderLineId: i.orderItemId, units: i.quantity })),
    );
    const net = recognized.net;
    const tax = recognized.tax;
    pkg.costOfGoods = money(cost.totalCost);
    pkg.status = packageTransition('ship', pkg.status, pkg.id);
    pkg.shippedAt = new Date();
    return {
      previousAttributes: { status: previous, shipped_at: null },
      cost: money(cost.totalCost),
      net,
      tax,
      orderFulfilled: allLinesShipped(order.lines, running),
    };
  }

  /** The shipment notification of a shipped package (it names the package number). */
  message(
    pkg: PackageRecord,
    order: OrderFacts,
    customer: { name: string; email: string | null },
  ): ShipmentMessage {
    return {
      packageId: pkg.id,
      orderId: order.id,
      recipient: customer.email,
      subject: `Your order has shipped: package ${pkg.packageNumber}`,
      body: [
        `Hello ${customer.name},`,
        `Package ${pkg.packageNumber} of your order ${order.id} has shipped${pkg.carrier ? ` with ${pkg.carrier.toUpperCase()}${pkg.serviceLevel ? ` ${pkg.serviceLevel}` : ''}` : ''}.`,
        pkg.trackingNumber ? `Tracking number: ${pkg.trackingNumber}` : 'No tracking number was given.',
        ...(pkg.trackingUrl ? [`Track it at ${pkg.trackingUrl}`] : []),
      ].join('\n'),
    };
  }
}

/** What shipping a package posts and changes besides its stock (see PackageShipping.prepare). */
export interface ShipmentPlan {
  /** The `previous_attributes` of `fulfillment.shipped`. */
  previousAttributes: { status: PackageStatus; shipped_at: null };
  cost: Decimal;
  net: Decimal;
  tax: Decimal;
  /** Every line of the order has shipped with this package. */
  orderFulfilled: boolean;
}
