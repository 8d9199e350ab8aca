import { Injectable } from '@nestjs/common';
import { EventPublisher } from '#platform/events/event-publisher';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { SalesOrders } from '#contexts/sales';
import { packageTransition } from '../../domain/package';
import { resolveCarrierService } from '../../domain/carrier-service';
import { applyShipmentCarrier, ShipInput } from '../../domain/shipment';
import { PackageItemRepository } from '../../infrastructure/package-item.repository';
import { PackageRepository } from '../../infrastructure/package.repository';
import { FulfillmentPostings } from '../fulfillment-postings.service';
import { OrderReader } from '../order-facts';
import { PackageResource } from '../package.presenter';
import { PackageShipping } from '../package-shipping.service';
import { PackageViews } from '../package-views.service';
import { ShipmentNotifications } from '../shipment-notifications.service';

/**
 * POST /packages/{id}/ship: a package leaves the warehouse, with its bought label or with the
 * carrier and tracking given by hand (docs/reference/resources.md, "Packages"; the FULFILLMENT
 * entry: docs/reference/accounting.md).
 */
@Injectable()
export class ShipPackage {
  constructor(
    private readonly tx: TransactionHost,
    private readonly packages: PackageRepository,
    private readonly items: PackageItemRepository,
    private readonly reader: OrderReader,
    private readonly shipping: PackageShipping,
    private readonly postings: FulfillmentPostings,
    private readonly notifications: ShipmentNotifications,
    private readonly views: PackageViews,
    private readonly orders: SalesOrders,
    private readonly events: EventPublisher,
  ) {}

  /**
   * In one transaction: lock the package and its order; check it may ship; set its carrier and
   * tracking; the stock and serials leave and the shipped units are recognised; FULFILLMENT is
   * posted; the shipment notification is written; `fulfillment.shipped` is emitted; the order is
   * marked fulfilled once every line shipped. After commit the notification is queued.
   */
  async ship(id: string, input: ShipInput): Promise<PackageResource> {
    // Carrier fields that disagree with each other are a 400 whatever the package's state: the
    // request is wrong on its own (its x-rules state it).
    resolveCarrierService(input);
    const shipped = await this.tx.run(async () => {
      const pkg = await this.packages.getForUpdate(id);
      await this.packages.lockOrder(pkg.orderId);
      packageTransition('ship', pkg.status, pkg.id);
      applyShipmentCarrier(pkg, input);
      const items = (await this.items.ofPackages([pkg.id])).get(pkg.id) ?? [];
      const order = await this.reader.order(pkg.orderId);
      const plan = await this.shipping.prepare(pkg, items, order);
      for (const item of items) await this.items.save(item);
      await this.packages.save(pkg);
      await this.postings.fulfillment(pkg.id, pkg.packageNumber, plan.cost, plan.net, plan.tax);
      const customer = await this.reader.customer(order.accountId);
      const notificationId = await this.notifications.compose(this.shipping.message(pkg, order, customer));
      const resource = await this.views.presentOne(pkg);
      await this.events.publish('fulfillment.shipped', resource, plan.previousAttributes);
      if (plan.orderFulfilled) await this.orders.markFulfilled(order.id);
      return { notificationId, resource };
    });
    await this.notifications.enqueue([shipped.notificationId]);
    return shipped.resource;
  }
}
