import { previousAttributes } from '#platform/events/previous-attributes';
import { ReferenceListService } from '#platform/reference-lists/reference-list.service';
import { Inject, Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { EventPublisher } from '#platform/events/event-publisher';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { listEnvelope, ListPage } from '#platform/http/list/paginate';
import { money } from '#platform/persistence/money';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { RequestContext } from '#platform/tenancy/request-context';
import { mergeMetadata } from '#platform/domain/metadata';
import { SalesOrders } from '#contexts/sales';
import { StockService, LOCATIONS_SERVICE } from '#contexts/inventory';
import { resolveCarrierService } from '../domain/carrier-service';
import { insurableAmount } from '../domain/insurance';
import { FulfillmentError } from '../domain/fulfillment-error';
import { LabelFileType } from '../domain/label';
import { packageTransition, PackageStatus, UNIT_HOLDING_STATUSES } from '../domain/package';
import {
  assertSerialCount,
  remainingByLine,
  RequestedItem,
  ResolvedItem,
  resolveItems,
  unitsIn,
} from '../domain/packing';
import {
  PackageItemRecord,
  PackageLabelRecord,
  PackageRecord,
  RevisionOverride,
} from '../infrastructure/fulfillment.entities';
import { FulfillmentSettingsRepository } from '../infrastructure/fulfillment-settings.repository';
import { PackageFilters, PackageRepository } from '../infrastructure/package.repository';
import { PackageItemRepository } from '../infrastructure/package-item.repository';
import { NewPackageWriter } from '../infrastructure/new-package.writer';
import { PackingReads } from '../infrastructure/packing-reads';
import { FulfillmentFacts, FulfillmentPostings } from './fulfillment-postings.service';
import { labelPurchaseFailed, LabelsService, PurchaseOutcome } from './labels.service';
import { assertPackable, OrderFacts, OrderReader } from './order-facts';
import { PackageResource } from './package.presenter';
import { PackageShipping, ShipmentPlan, SHIPPED_STATUSES } from './package-shipping.service';
import { PackageViews, PackedProduct } from './package-views.service';
import { ShipmentNotifications } from './shipment-notifications.service';

export interface PackageFields {
  box_product_id?: string | null;
  length?: number | null;
  width?: number | null;
  height?: number | null;
  weight?: number | null;
  notes?: string | null;
  metadata?: Record<string, unknown>;
  carrier_service?: string | null;
  carrier?: string | null;
  service?: string | null;
  location_id?: string | null;
  insurance_amount_override?: number | null;
  billed_ship_cost?: number | null;
}

export interface CreatePackageInput extends PackageFields {
  order_id: string;
  items?: RequestedItem[];
  buy_label?: boolean;
  rate_object_id?: string;
  fulfill_after_label?: boolean;
  label_file_type?: LabelFileType;
  skip_revision_ack?: boolean;
}

export interface ShipInput {
  carrier_service?: string;
  carrier?: string;
  service?: string;
  tracking_number?: string;
  tracking_url?: string;
}

type PackageEvent = 'fulfillment.package.created' | 'fulfillment.label.purchased' | 'fulfillment.shipped';

/** A package being created: its order, the package and items built in memory, their products. */
interface PackageDraft {
  order: OrderFacts;
  pkg: PackageRecord;
  items: PackageItemRecord[];
  products: Map<string, PackedProduct>;
  insuranceThreshold: Decimal | null;
}

/** What the inline label and shipment of a new package led to, with the events of each step. */
interface CreationSteps {
  events: { type: PackageEvent; object: PackageResource; previousAttributes?: Record<string, unknown> }[];
  outcome: PurchaseOutcome | null;
  label: PackageLabelRecord | undefined;
  shipment: ShipmentPlan | null;
}

/** A box's dimensions in inches and weight in pounds. */
const TO_INCHES: Record<string, number> = { in: 1, ft: 12, mm: 1 / 25.4, cm: 1 / 2.54, m: 100 / 2.54 };
const TO_POUNDS: Record<string, number> = { lb: 1, oz: 1 / 16, kg: 2.20462262, g: 0.00220462262 };
const inches = (v: number, unit: string) =>
  money(v)
    .times(TO_INCHES[unit] ?? 1)
    .toDecimalPlaces(4);
const pounds = (v: number, unit: string) =>
  money(v)
    .times(TO_POUNDS[unit] ?? 1)
    .toDecimalPlaces(4);
const amountOrNull = (v: number | null | undefined) => (v === null || v === undefined ? null : money(v));

/** Packages: creation with items (and an inline label and fulfillment), changes and the package life. */
@Injectable()
export class PackagesService {
  constructor(
    private readonly tx: TransactionHost,
    private readonly packages: PackageRepository,
    private readonly items: PackageItemRepository,
    private readonly newPackages: NewPackageWriter,
    private readonly reads: PackingReads,
    private readonly settings: FulfillmentSettingsRepository,
    private readonly views: PackageViews,
    private readonly reader: OrderReader,
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
   * POST /packages. `override` is true when the caller may pass the revision gate (the
   * controller checked orders:revision_override) and asked to, with `via` saying how.
   * The steps: take the package number, then in one transaction read the order, check it may be
   * packed and pass its revision gate, resolve the items and check their serials, build the
   * package and its items, buy the label and ship when asked to, and write it all at commit.
   */
  async create(
    input: CreatePackageInput,
    override: RevisionOverride['via'] | null,
  ): Promise<PackageResource> {
    if (input.buy_label && !input.rate_object_id)
      throw new FulfillmentError('parameter_missing', {
        param: 'rate_object_id',
        hint: 'buy_label: true needs the rate_object_id of a rate from GET /v1/packages/{id}/rates.',
      });
    const packageNumber = await this.settings.takePackageNumber();
    const result = await this.tx.run(async () => {
      const { order, unitsByStatus, insuranceThreshold, rate } = await this.reads.orderToPack(
        input.order_id,
        input.buy_label ? input.rate_object_id! : null,
      );
      assertPackable(order);
      const revisionOverride = this.passRevisionGate(order, override);
      const packed = unitsIn(unitsByStatus, UNIT_HOLDING_STATUSES);
      const resolved = resolveItems(input.items ?? [], order.lines, remainingByLine(order.lines, packed));
      const { products, customer, entryFacts } = await this.reads.packedLineFacts(
        [...resolved.map((r) => r.productId), ...(input.box_product_id ? [input.box_product_id] : [])],
        input.buy_label ? order : null,
        Boolean(input.buy_label && input.fulfill_after_label),
      );
      await this.assertSerials(order, resolved, products);
      const pkg = await this.buildPackage(order, packageNumber, revisionOverride, input, products);
      const items = this.buildItems(pkg, order, resolved);
      const draft: PackageDraft = { order, pkg, items, products, insuranceThreshold };
      const steps = await this.labelAndShip(draft, input, rate, customer, unitsByStatus);
      const notificationId = await this.write(draft, steps, customer, entryFacts);
      return {
        outcome: steps.outcome,
        notificationId,
        resource: this.views.build(pkg, items, steps.label, products, insuranceThreshold),
      };
    });
    if (result.notificationId) await this.notifications.enqueue([result.notificationId]);
    if (result.outcome && !result.outcome.ok) throw labelPurchaseFailed(result.outcome.hint, result.resource);
    return result.resource;
  }

  /**
   * The revision gate: an order revised after the customer received it is packed only when the
   * caller may pass the gate and asked to; the override it records, or null when not revised.
   */
  private passRevisionGate(
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

  /** The new package, packing, with the request's fields, built in memory. */
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
    await this.applyFields(pkg, input, products);
    // Where the order's lines committed stock, unless the request names a location.
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

  /**
   * The label bought inline (buy_label) and the package shipped right after it
   * (fulfill_after_label), with the events of each step; each event carries the package as it
   * was at its step.
   */
  private async labelAndShip(
    draft: PackageDraft,
    input: CreatePackageInput,
    rate: Awaited<ReturnType<LabelsService['findRate']>> | null,
    customer: { name: string } | null,
    unitsByStatus: Map<string, Map<string, number>>,
  ): Promise<CreationSteps> {
    const { order, pkg, items, products, insuranceThreshold } = draft;
    const events: CreationSteps['events'] = [
      {
        type: 'fulfillment.package.created',
        object: this.views.build(pkg, items, undefined, products, insuranceThreshold),
      },
    ];
    let outcome: PurchaseOutcome | null = null;
    let label: PackageLabelRecord | undefined;
    let shipment: ShipmentPlan | null = null;
    if (input.buy_label && customer) {
      const insured = insurableAmount(
        this.views.summary(pkg, items, products, insuranceThreshold, undefined),
      );
      const parties = await this.reader.labelParties(pkg.locationId, order.accountId, customer.name);
      const purchase = await this.labels.purchase(
        pkg,
        input.rate_object_id!,
        rate,
        input.label_file_type ?? 'PDF',
        insured,
        parties,
      );
      outcome = purchase.ok ? { ok: true } : purchase;
      if (purchase.ok) {
        label = this.labels.applyPurchase(pkg, purchase);
        events.push({
          type: 'fulfillment.label.purchased',
          object: this.views.build(pkg, items, label, products, insuranceThreshold),
        });
        if (input.fulfill_after_label) {
          shipment = await this.shipping.prepare(pkg, items, order, unitsIn(unitsByStatus, SHIPPED_STATUSES));
          events.push({
            type: 'fulfillment.shipped',
            object: this.views.build(pkg, items, label, products, insuranceThreshold),
            previousAttributes: shipment.previousAttributes,
          });
        }
      }
    }
    return { events, outcome, label, shipment };
  }

  /**
   * The writes of a new package: the order marked fulfilled when the shipment fulfils it; the
   * package, its items, label and notification; its events; the FULFILLMENT entry when it ships.
   * Returns the shipment notification's id, if one was drafted.
   */
  private async write(
    { order, pkg, items }: PackageDraft,
    { events, label, shipment }: CreationSteps,
    customer: { name: string; email: string | null } | null,
    entryFacts: FulfillmentFacts | null,
  ): Promise<string | null> {
    if (shipment?.orderFulfilled) await this.orders.markFulfilled(order.id);
    const notification = shipment && this.notifications.draft(this.shipping.message(pkg, order, customer!));
    await this.newPackages.write(pkg, items, label ?? null, notification ?? null);
    await this.events.publishMany(events);
    if (shipment)
      await this.postings.postFulfillmentOfNewPackage(
        pkg,
        shipment,
        entryFacts ?? (await this.postings.fulfillmentFacts()),
      );
    return notification?.id ?? null;
  }

  async list(query: ListQueryDto & PackageFilters, url: string): Promise<ListPage<PackageResource>> {
    const page = await this.packages.list(query, url);
    return listEnvelope(await this.views.present(page.rows), page, url);
  }

  async retrieve(id: string): Promise<PackageResource> {
    return this.views.presentOne(await this.packages.getById(id));
  }

  /** Changes a package while it is packing or packed. */
  async update(id: string, input: PackageFields): Promise<PackageResource> {
    return this.tx.run(async () => {
      const pkg = await this.packages.getForUpdate(id);
      packageTransition('edit', pkg.status, pkg.id);
      const before = await this.views.presentOne(pkg);
      const products = await this.views.products(input.box_product_id ? [input.box_product_id] : []);
      await this.applyFields(pkg, input, products);
      pkg.updatedAt = new Date();
      const resource = await this.views.presentOne(await this.packages.save(pkg));
      await this.events.publish(
        'fulfillment.package.updated',
        resource,
        previousAttributes(before, resource),
      );
      return resource;
    });
  }

  async pack(id: string): Promise<PackageResource> {
    return this.tx.run(async () => {
      const pkg = await this.packages.getForUpdate(id);
      packageTransition('pack', pkg.status, pkg.id);
      const items = (await this.items.ofPackages([pkg.id])).get(pkg.id) ?? [];
      if (items.length === 0)
        throw new FulfillmentError('invalid_state', { hint: `Package '${pkg.id}' has no items to pack.` });
      return this.move(pkg, 'pack', 'fulfillment.package.updated');
    });
  }

  /** Ships without a bought label (carrier and tracking by hand), or with the label bought earlier. */
  async ship(id: string, input: ShipInput): Promise<PackageResource> {
    const result = await this.tx.run(async () => {
      const pkg = await this.packages.getForUpdate(id);
      await this.packages.lockOrder(pkg.orderId);
      packageTransition('ship', pkg.status, pkg.id);
      if (pkg.status !== 'labeled') {
        const { carrier, service } = resolveCarrierService(input);
        const chosenCarrier = carrier ?? pkg.carrier;
        if (!chosenCarrier)
          throw new FulfillmentError('parameter_missing', {
            param: 'carrier',
            hint: 'A package shipped without a bought label needs its carrier (carrier or carrier_service).',
          });
        if (!input.tracking_number)
          throw new FulfillmentError('parameter_missing', {
            param: 'tracking_number',
            hint: 'A package shipped without a bought label needs the tracking_number given by the carrier.',
          });
        pkg.carrier = chosenCarrier;
        pkg.serviceLevel = service ?? pkg.serviceLevel;
        pkg.trackingNumber = input.tracking_number;
        pkg.trackingUrl = input.tracking_url ?? null;
      } else if (input.tracking_number || input.carrier || input.carrier_service) {
        throw new FulfillmentError('parameter_invalid', {
          param: input.tracking_number ? 'tracking_number' : 'carrier',
          hint: 'This package has a bought label: its carrier and tracking come from the label.',
        });
      }
      const items = (await this.items.ofPackages([pkg.id])).get(pkg.id) ?? [];
      const { notificationId } = await this.shipping.shipInside(pkg, items);
      return { notificationId, resource: await this.views.presentOne(pkg) };
    });
    await this.notifications.enqueue([result.notificationId]);
    return result.resource;
  }

  async deliver(id: string): Promise<PackageResource> {
    return this.tx.run(async () => {
      const pkg = await this.packages.getForUpdate(id);
      packageTransition('deliver', pkg.status, pkg.id);
      pkg.deliveredAt = new Date();
      return this.move(pkg, 'deliver', 'fulfillment.delivered');
    });
  }

  /** Voids a package before it ships: its units go back to the order lines; a bought label is refunded. */
  async void(id: string): Promise<PackageResource> {
    return this.tx.run(async () => {
      const pkg = await this.packages.getForUpdate(id);
      await this.packages.lockOrder(pkg.orderId);
      packageTransition('void', pkg.status, pkg.id);
      const label = await this.labels.refundInside(pkg);
      if (label?.refundStatus === 'rejected')
        await this.postings.labelRefundDenied(pkg.id, pkg.packageNumber, label.amount);
      pkg.voidedAt = new Date();
      return this.move(pkg, 'void', 'fulfillment.package.voided');
    });
  }

  async notificationsOf(id: string) {
    const pkg = await this.packages.getById(id);
    const data = await this.notifications.ofPackage(pkg.id);
    return { object: 'list' as const, data, has_more: false, url: `/v1/packages/${pkg.id}/notifications` };
  }

  private async move(
    pkg: PackageRecord,
    action: 'pack' | 'deliver' | 'void',
    event: 'fulfillment.package.updated' | 'fulfillment.delivered' | 'fulfillment.package.voided',
  ): Promise<PackageResource> {
    const previous: PackageStatus = pkg.status;
    pkg.status = packageTransition(action, pkg.status, pkg.id);
    const resource = await this.views.presentOne(await this.packages.save(pkg));
    await this.events.publish(event, resource, { status: previous });
    return resource;
  }

  private async applyFields(
    pkg: PackageRecord,
    input: PackageFields,
    products: Map<string, PackedProduct>,
  ): Promise<void> {
    if (input.box_product_id !== undefined) {
      pkg.boxProductId = input.box_product_id;
      if (input.box_product_id) {
        const box = products.get(input.box_product_id);
        if (!box || box.type !== 'box')
          throw new FulfillmentError('parameter_invalid', {
            param: 'box_product_id',
            hint: box
              ? `Product '${input.box_product_id}' is of type '${box.type}'; box_product_id names a product of type 'box'.`
              : `No product with id '${input.box_product_id}' exists for this entity and mode.`,
          });
        if (box.dimensions) {
          pkg.lengthIn = inches(box.dimensions.length, box.dimensions.unit);
          pkg.widthIn = inches(box.dimensions.width, box.dimensions.unit);
          pkg.heightIn = inches(box.dimensions.height, box.dimensions.unit);
        }
        if (box.weight && input.weight === undefined && pkg.weightLb === null)
          pkg.weightLb = pounds(box.weight.value, box.weight.unit);
      }
    }
    if (input.length !== undefined) pkg.lengthIn = amountOrNull(input.length);
    if (input.width !== undefined) pkg.widthIn = amountOrNull(input.width);
    if (input.height !== undefined) pkg.heightIn = amountOrNull(input.height);
    if (input.weight !== undefined) pkg.weightLb = amountOrNull(input.weight);
    if (input.notes !== undefined) pkg.notes = input.notes;
    if (input.metadata !== undefined) pkg.metadata = mergeMetadata(pkg.metadata, input.metadata);
    if (input.insurance_amount_override !== undefined)
      pkg.insuranceAmountOverride = amountOrNull(input.insurance_amount_override);
    if (input.billed_ship_cost !== undefined) pkg.billedShipCost = amountOrNull(input.billed_ship_cost);
    if (input.carrier_service !== undefined || input.carrier !== undefined || input.service !== undefined) {
      const { carrier, service } = resolveCarrierService(input);
      if (carrier || input.carrier === null || input.carrier_service === null) pkg.carrier = carrier;
      if (service || input.service === null || input.carrier_service === null) pkg.serviceLevel = service;
    }
    if (input.location_id !== undefined) {
      if (input.location_id && !(await this.locations.exists(input.location_id)))
        throw new FulfillmentError('parameter_invalid', {
          param: 'location_id',
          hint: `No location with id '${input.location_id}' exists for this entity and mode.`,
        });
      pkg.locationId = input.location_id;
    }
  }
}
