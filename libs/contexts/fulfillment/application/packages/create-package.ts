import { Inject, Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { EventPublisher } from '#platform/events/event-publisher';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { ReferenceListService } from '#platform/reference-lists/reference-list.service';
import { RequestContext } from '#platform/tenancy/request-context';
import { SalesOrders } from '#contexts/sales';
import { LOCATIONS_SERVICE, StockService } from '#contexts/inventory';
import { FulfillmentError } from '../../domain/fulfillment-error';
import { insurableAmount } from '../../domain/insurance';
import { LabelFileType } from '../../domain/label';
import { UNIT_HOLDING_STATUSES } from '../../domain/package';
import { applyPackageFields, assertLocationExists, PackageFields } from '../../domain/package-fields';
import {
  assertSerialCount,
  remainingByLine,
  RequestedItem,
  ResolvedItem,
  resolveItems,
  unitsIn,
} from '../../domain/packing';
import {
  PackageItemRecord,
  PackageLabelRecord,
  PackageRecord,
  RevisionOverride,
} from '../../infrastructure/fulfillment.entities';
import { FulfillmentSettingsRepository } from '../../infrastructure/fulfillment-settings.repository';
import { NewPackageWriter } from '../../infrastructure/new-package.writer';
import { PackageItemRepository } from '../../infrastructure/package-item.repository';
import { PackageRepository } from '../../infrastructure/package.repository';
import { FulfillmentPostings } from '../fulfillment-postings.service';
import { labelPurchaseFailed, LabelsService, Purchase } from '../labels.service';
import { assertPackable, OrderFacts, OrderReader } from '../order-facts';
import { PackageResource } from '../package.presenter';
import { PackageShipping, ShipmentPlan, SHIPPED_STATUSES } from '../package-shipping.service';
import { PackageViews, PackedProduct } from '../package-views.service';
import { ShipmentNotifications } from '../shipment-notifications.service';

export interface CreatePackageInput extends PackageFields {
  order_id: string;
  items?: RequestedItem[];
  buy_label?: boolean;
  rate_object_id?: string;
  fulfill_after_label?: boolean;
  label_file_type?: LabelFileType;
  skip_revision_ack?: boolean;
}

/** A package drafted by CreatePackage.draft(). */
interface Draft {
  order: OrderFacts;
  pkg: PackageRecord;
  items: PackageItemRecord[];
  products: Map<string, PackedProduct>;
  unitsByStatus: Map<string, Map<string, number>>;
}

type Customer = Awaited<ReturnType<OrderReader['customer']>>;

type PackageEvent = 'fulfillment.package.created' | 'fulfillment.label.purchased' | 'fulfillment.shipped';
type StepEvent = {
  type: PackageEvent;
  object: PackageResource;
  previousAttributes?: Record<string, unknown>;
};

/**
 * POST /packages: a package of a confirmed sales order with its items, and in the same request,
 * when asked, its label and its shipment (docs/reference/resources.md, "Packages"; the
 * FULFILLMENT entry: docs/reference/accounting.md).
 */
@Injectable()
export class CreatePackage {
  constructor(
    private readonly tx: TransactionHost,
    private readonly settings: FulfillmentSettingsRepository,
    private readonly packages: PackageRepository,
    private readonly items: PackageItemRepository,
    private readonly newPackages: NewPackageWriter,
    private readonly reader: OrderReader,
    private readonly views: PackageViews,
    private readonly labels: LabelsService,
    private readonly shipping: PackageShipping,
    private readonly notifications: ShipmentNotifications,
    private readonly postings: FulfillmentPostings,
    private readonly orders: SalesOrders,
    private readonly stock: StockService,
    @Inject(LOCATIONS_SERVICE) private readonly locations: ReferenceListService,
    private readonly events: EventPublisher,
  ) {}

  /**
   * `override` is how the caller passes the revision gate (the controller checked the scope
   * orders:revision_override), or null. The steps: take the package number (with the entity's
   * insurance threshold); when a label is to be bought, with no transaction open, read the order
   * with its customer, take the number with the units already packed, draft the package
   * (checked, nothing written), and buy its label from the carrier; then in one transaction draft it again from
   * the order and packed units as they are now (read the order and lock it against concurrent
   * packing, check it may be packed and pass its revision gate, resolve the items and check their
   * serials, build the package and its items; products and customer as the label's draft read
   * them), apply the bought label and ship when asked to, and write it all. A label bought for a
   * package the transaction then refuses is handed back to the carrier. After commit the shipment
   * notification is queued; a refused label answers 422 with the package kept.
   */
  async execute(
    input: CreatePackageInput,
    override: RevisionOverride['via'] | null,
  ): Promise<PackageResource> {
    const buysLabel = Boolean(input.buy_label);
    const shipsNow = buysLabel && Boolean(input.fulfill_after_label);
    if (buysLabel && !input.rate_object_id)
      throw new FulfillmentError('parameter_missing', {
        param: 'rate_object_id',
        hint: 'buy_label: true needs the rate_object_id of a rate from GET /v1/packages/{id}/rates.',
      });
    // The label, when asked: the package drafted and checked first, then the carrier asked with
    // no transaction open (a slow carrier holds no lock); a refusal keeps the package. The draft
    // reads without a transaction or the order's packing lock (the package's transaction drafts
    // it again under the lock), its number taken by the statement that reads the packed units.
    let packageNumber: string;
    let insuranceThreshold: Decimal | null;
    let labelled: { draft: Draft; customer: Customer } | undefined;
    let purchase: Purchase | null = null;
    if (buysLabel) {
      const { order, recipient } = await this.reader.orderWithRecipient(input.order_id);
      const taken = await this.newPackages.takeNumberReadingPackedUnits(order.id);
      ({ packageNumber, insuranceThreshold } = taken);
      const draft = await this.build(input, override, packageNumber, order, taken.unitsByStatus);
      const parties = await this.reader.partiesFor(draft.pkg.locationId, recipient);
      labelled = { draft, customer: recipient.customer };
      const { pkg, items, products } = draft;
      purchase = await this.labels.purchase(
        pkg,
        input.rate_object_id!,
        input.label_file_type ?? 'PDF',
        insurableAmount(this.views.summary(pkg, items, products, insuranceThreshold, undefined)),
        parties,
      );
    } else {
      ({ packageNumber, insuranceThreshold } = await this.settings.takePackageNumber());
    }

    let result: { refusal: string | null; notificationId: string | null; resource: PackageResource };
    try {
      result = await this.tx.run(async () => {
        // The package and its items, drafted again under the order's packing lock.
        const draft = await this.draft(input, override, packageNumber, labelled?.draft);
        const { order, pkg, items, products, unitsByStatus } = draft;
        const present = (label?: PackageLabelRecord) =>
          this.views.build(pkg, items, label, products, insuranceThreshold);
        const events: StepEvent[] = [{ type: 'fulfillment.package.created', object: present() }];

        // The bought label, recorded with the package.
        let label: PackageLabelRecord | undefined;
        if (purchase?.ok) {
          label = this.labels.applyPurchase(pkg, purchase);
          events.push({ type: 'fulfillment.label.purchased', object: present(label) });
        }

        // The shipment, when asked and the label was bought: stock leaves, the units are recognised.
        let shipment: ShipmentPlan | null = null;
        let notification: ReturnType<ShipmentNotifications['draft']> | null = null;
        if (shipsNow && label) {
          shipment = await this.shipping.prepare(pkg, items, order, unitsIn(unitsByStatus, SHIPPED_STATUSES));
          events.push({
            type: 'fulfillment.shipped',
            object: present(label),
            previousAttributes: shipment.previousAttributes,
          });
          if (shipment.orderFulfilled) await this.orders.markFulfilled(order.id);
          const customer = labelled?.customer ?? (await this.reader.customer(order.accountId));
          notification = this.notifications.draft(this.shipping.message(pkg, order, customer));
        }

        // The writes: the package, its items, label and notification with their events; the
        // FULFILLMENT entry of a shipment, last (its number's counter row stays locked until commit).
        await this.newPackages.write(pkg, items, label ?? null, notification, this.events.outboxRows(events));
        if (shipment) await this.postings.fulfillmentOfNewPackage(pkg, shipment);
        return {
          refusal: purchase && !purchase.ok ? purchase.hint : null,
          notificationId: notification?.id ?? null,
          resource: present(label),
        };
      });
    } catch (error) {
      // The package was not created: the label bought for it goes back to the carrier.
      if (purchase?.ok) await this.labels.handBack(labelled!.draft.pkg.id, packageNumber, purchase);
      throw error;
    }
    if (result.notificationId) await this.notifications.enqueue([result.notificationId]);
    if (result.refusal !== null) throw labelPurchaseFailed(result.refusal, result.resource);
    return result.resource;
  }

  /**
   * The package as the request makes it, built in memory from what holds now and checked: the
   * order read and locked against concurrent packing, then build().
   */
  private async draft(
    input: CreatePackageInput,
    override: RevisionOverride['via'] | null,
    packageNumber: string,
    earlier?: Draft,
  ): Promise<Draft> {
    const order = await this.reader.order(input.order_id);
    const unitsByStatus = await this.newPackages.lockOrderForPacking(order.id);
    return this.build(input, override, packageNumber, order, unitsByStatus, earlier);
  }

  /**
   * The package built from the order and the units of its packages by status, and checked: the
   * order packable and past its revision gate; the items resolved from each order line's
   * remaining units, their serials allocated to the order. `earlier`: the draft its label was
   * bought for, whose id the package keeps and whose products are not read again.
   */
  private async build(
    input: CreatePackageInput,
    override: RevisionOverride['via'] | null,
    packageNumber: string,
    order: OrderFacts,
    unitsByStatus: Map<string, Map<string, number>>,
    earlier?: Draft,
  ): Promise<Draft> {
    assertPackable(order);
    const revisionOverride = passRevisionGate(order, override);
    const packed = unitsIn(unitsByStatus, UNIT_HOLDING_STATUSES);
    const resolved = resolveItems(input.items ?? [], order.lines, remainingByLine(order.lines, packed));
    const boxIds = input.box_product_id ? [input.box_product_id] : [];
    const products = await this.productsOf(
      [...resolved.map((r) => r.productId), ...boxIds],
      earlier?.products,
    );
    await this.assertSerials(order, resolved, products);
    const pkg = await this.buildPackage(order, packageNumber, revisionOverride, input, products);
    if (earlier) pkg.id = earlier.pkg.id;
    const items = this.buildItems(pkg, order, resolved);
    return { order, pkg, items, products, unitsByStatus };
  }

  /** The products of `ids`: those `known` holds, the others read. */
  private async productsOf(
    ids: string[],
    known?: Map<string, PackedProduct>,
  ): Promise<Map<string, PackedProduct>> {
    if (!known) return this.views.products(ids);
    const missing = ids.filter((id) => !known.has(id));
    if (missing.length === 0) return known;
    return new Map([...known, ...(await this.views.products(missing))]);
  }

  /** Serial-tracked items carry one serial per unit, each allocated to the order's line. */
  private async assertSerials(
    order: OrderFacts,
    resolved: ResolvedItem[],
    products: Map<string, PackedProduct>,
  ): Promise<void> {
    for (const item of resolved) {
      assertSerialCount(item, products.get(item.productId)?.serial_tracked ?? false);
      if (item.serialNumbers.length)
        await this.stock.assertSerialsAllocated({
          orderId: order.id,
          productId: item.productId,
          serialNumbers: item.serialNumbers,
          param: `items[${item.index}].serial_numbers`,
        });
    }
  }

  /** The new package, packing, with the request's fields; it ships from where the order committed stock unless the request names a location. */
  private async buildPackage(
    order: OrderFacts,
    packageNumber: string,
    revisionOverride: RevisionOverride | null,
    input: CreatePackageInput,
    products: Map<string, PackedProduct>,
  ): Promise<PackageRecord> {
    const [pkg] = this.packages.buildMany([
      {
        orderId: order.id,
        packageNumber,
        status: 'packing',
        boxProductId: null,
        weightLb: null,
        lengthIn: null,
        widthIn: null,
        heightIn: null,
        carrier: null,
        serviceLevel: null,
        trackingNumber: null,
        trackingUrl: null,
        shipCost: null,
        billedShipCost: null,
        locationId: null,
        insuranceAmountOverride: null,
        insuredAmount: null,
        insuranceFee: null,
        notes: null,
        metadata: {},
        revisionOverride,
        costOfGoods: null,
        shippedAt: null,
        deliveredAt: null,
        voidedAt: null,
        returnedAt: null,
      },
    ]);
    applyPackageFields(pkg, input, products);
    if (input.location_id) await assertLocationExists(this.locations, input.location_id);
    if (!pkg.locationId) pkg.locationId = await this.stock.commitLocation();
    return pkg;
  }

  /** The package's items, in the order resolved, priced as their order lines. */
  private buildItems(pkg: PackageRecord, order: OrderFacts, resolved: ResolvedItem[]): PackageItemRecord[] {
    const lineById = new Map(order.lines.map((l) => [l.id, l]));
    return this.items.buildMany(
      resolved.map((r, position) => ({
        packageId: pkg.id,
        orderId: order.id,
        orderItemId: r.orderItemId,
        productId: r.productId,
        quantity: r.quantity,
        serialNumbers: r.serialNumbers,
        unitPrice: lineById.get(r.orderItemId)!.unitPrice,
        unitCost: null,
        returnedQuantity: 0,
        returnedSerials: [],
        position,
      })),
    );
  }
}

/**
 * The revision gate: an order revised after the customer received it is packed only when the
 * caller may pass the gate and asked to; the override it records, or null when not revised.
 */
function passRevisionGate(
  order: OrderFacts,
  override: RevisionOverride['via'] | null,
): RevisionOverride | null {
  if (!order.revisionPending) return null;
  if (!override)
    throw new FulfillmentError('revision_unacknowledged', {
      hint: `Order '${order.id}' was revised after the customer received it and the customer has not acknowledged the new total. POST /v1/orders/${order.id}/customer-acknowledge-revision first, or pass the gate with skip_revision_ack: true (or ?override=true) and the scope orders:revision_override.`,
    });
  return {
    via: override,
    api_key_id: RequestContext.caller().apiKeyId,
    overridden_at: new Date().toISOString(),
    order_revised_at: order.revisedAt,
  };
}
