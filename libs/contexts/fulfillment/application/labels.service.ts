import { Inject, Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { AppConfig } from '#platform/config/app-config';
import { EventPublisher } from '#platform/events/event-publisher';
import { ListPage } from '#platform/http/list/paginate';
import { money, toJsonNumber } from '#platform/domain/money';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { insurableAmount } from '../domain/insurance';
import { FulfillmentError } from '../domain/fulfillment-error';
import {
  CONTENT_TYPES,
  LABEL_FILE_TYPES,
  LabelDrawing,
  LabelFileType,
  negotiateLabelType,
} from '../domain/label';
import { canMove, packageTransition } from '../domain/package';
import { PackageLabelRecord, PackageRecord } from '../infrastructure/fulfillment.entities';
import { PackageItemRepository } from '../infrastructure/package-item.repository';
import { PackageLabelRepository } from '../infrastructure/package-label.repository';
import { PackageRepository } from '../infrastructure/package.repository';
import { RateSigner } from '../infrastructure/rate-signer';
import { renderLabel } from '../infrastructure/labels/render-label';
import {
  askRefund,
  CARRIER_GATEWAY,
  CarrierFailure,
  CarrierGateway,
  CarrierRate,
  Parcel,
  PurchasedLabel,
} from './carrier.port';
import { LabelParties, OrderReader } from './order-facts';
import { PackageResource } from './package.presenter';
import { PackageViews } from './package-views.service';
import { FulfillmentPostings } from './fulfillment-postings.service';

/** A quoted rate as GET /packages/{id}/rates answers it. */
export const toRateResource = (packageId: string, rateObjectId: string, q: CarrierRate, expiresAt: Date) => ({
  object: 'shipping_rate' as const,
  rate_object_id: rateObjectId,
  package_id: packageId,
  carrier: q.carrier,
  service_level: q.service,
  amount: toJsonNumber(q.amount, 2) as number,
  currency: q.currency,
  estimated_days: q.estimatedDays,
  insurance_fee: toJsonNumber(q.insuranceFee, 2) as number,
  expires_at: expiresAt.toISOString(),
});
export type RateResource = ReturnType<typeof toRateResource>;

/** A label bought from the carrier, not yet recorded, or the refusal's hint. */
export type Purchase =
  { ok: true; rateObjectId: string; rate: CarrierRate; bought: PurchasedLabel } | { ok: false; hint: string };

const parcelOf = (p: PackageRecord): Parcel => ({
  weightLb: p.weightLb,
  lengthIn: p.lengthIn,
  widthIn: p.widthIn,
  heightIn: p.heightIn,
});

/** Rates and labels of packages through the configured carrier gateway (sandbox or EasyPost). */
@Injectable()
export class LabelsService {
  constructor(
    private readonly tx: TransactionHost,
    private readonly packages: PackageRepository,
    private readonly items: PackageItemRepository,
    private readonly signer: RateSigner,
    private readonly labels: PackageLabelRepository,
    private readonly views: PackageViews,
    private readonly reader: OrderReader,
    private readonly events: EventPublisher,
    private readonly postings: FulfillmentPostings,
    private readonly config: AppConfig,
    @Inject(CARRIER_GATEWAY) private readonly carrier: CarrierGateway,
  ) {}

  /**
   * What quoting or buying a label reads: the package (which must be able to take a label), its
   * insurable amount, its order and the order's customer.
   */
  private async labelBasis(packageId: string) {
    const pkg = await this.packages.getById(packageId);
    packageTransition('buy_label', pkg.status, pkg.id);
    const items = (await this.items.ofPackages([pkg.id])).get(pkg.id) ?? [];
    const insured = insurableAmount(await this.views.insurance(pkg, items));
    const order = await this.reader.order(pkg.orderId);
    const customer = await this.reader.customer(order.accountId);
    return { pkg, insured, order, customer };
  }

  /**
   * Quotes every carrier and service for the package; each rate can buy a label until it
   * expires. Writes nothing: each rate_object_id carries its signed rate (RateSigner).
   */
  async quote(packageId: string, url: string): Promise<ListPage<RateResource>> {
    const { pkg, insured, customer } = await this.labelBasis(packageId);
    const quotes = await this.carrier.quote({
      reference: pkg.id,
      parcel: parcelOf(pkg),
      shipTo: { name: customer.name, lines: [] },
      insuredAmount: insured,
    });
    // From the next whole minute: quotes of the same minute are the same (a repeated GET is 304).
    const expiresAt = new Date(
      Math.ceil(Date.now() / 60_000) * 60_000 + this.config.SHIPPING_RATE_TTL_HOURS * 3600_000,
    );
    const data = quotes.map((q) =>
      toRateResource(
        pkg.id,
        this.signer.sign(pkg.orderId, this.carrier.provider, q, expiresAt),
        q,
        expiresAt,
      ),
    );
    return { object: 'list', data, has_more: false, url };
  }

  /**
   * Checks the rate `rateObjectId` carries (signed for this package's order, not expired, quoted
   * by this provider) and buys the label from the carrier; writes nothing. `insured` is what the
   * label insures (the package's insurance summary), `parties` whom it names (ship-from and
   * ship-to lines, the customer's name first).
   */
  async purchase(
    pkg: PackageRecord,
    rateObjectId: string,
    fileType: LabelFileType,
    insured: Decimal | null,
    parties: LabelParties,
  ): Promise<Purchase> {
    packageTransition('buy_label', pkg.status, pkg.id);
    const reading = this.signer.read(pkg.orderId, rateObjectId);
    if (reading.kind === 'unknown')
      return {
        ok: false,
        hint: `Unknown rate_object_id '${rateObjectId}' for this order: request rates with GET /v1/packages/{id}/rates for a package of order '${pkg.orderId}'.`,
      };
    if (reading.kind === 'expired')
      return {
        ok: false,
        hint: `Rate '${rateObjectId}' expired at ${reading.expiresAt.toISOString()} (rates are valid ${this.config.SHIPPING_RATE_TTL_HOURS} h); request new rates.`,
      };
    const { provider, rate } = reading.signed;
    if (provider !== this.carrier.provider)
      return {
        ok: false,
        hint: `Rate '${rateObjectId}' was quoted by another label provider; request new rates.`,
      };
    try {
      const bought = await this.carrier.purchase({
        reference: `${pkg.id}:${rateObjectId}`,
        parcel: parcelOf(pkg),
        shipTo: { name: parties.shipTo[0], lines: [] },
        rate,
        insuredAmount: insured,
        fileType,
        label: {
          weightLb: (pkg.weightLb ?? money(1)).toString(),
          shipFrom: parties.shipFrom,
          shipTo: parties.shipTo,
        },
      });
      return { ok: true, rateObjectId, rate, bought };
    } catch (error) {
      if (error instanceof CarrierFailure)
        return { ok: false, hint: `The carrier refused the label: ${error.message}` };
      throw error;
    }
  }

  /**
   * The package labeled with a bought label (status, carrier, tracking, cost, insurance) and the
   * label record, built but not written (a label the provider leaves to us to draw keeps its
   * drawing, and is drawn when served).
   */
  applyPurchase(
    pkg: PackageRecord,
    { rateObjectId, rate, bought }: Extract<Purchase, { ok: true }>,
  ): PackageLabelRecord {
    const [label] = this.labels.buildMany([
      {
        packageId: pkg.id,
        provider: this.carrier.provider,
        providerShipmentId: bought.providerShipmentId,
        rateObjectId,
        carrier: rate.carrier,
        serviceLevel: rate.service,
        trackingNumber: bought.trackingNumber,
        fileType: bought.fileType,
        contentType: bought.contentType,
        content: bought.content,
        drawing: bought.drawing,
        amount: bought.amount,
        insuredAmount: bought.insuredAmount,
        insuranceFee: bought.insuranceFee,
        refundStatus: null,
      },
    ]);
    pkg.status = packageTransition('buy_label', pkg.status, pkg.id);
    pkg.carrier = rate.carrier.toLowerCase();
    pkg.serviceLevel = rate.service;
    pkg.trackingNumber = bought.trackingNumber;
    pkg.trackingUrl = bought.trackingUrl;
    pkg.shipCost = bought.amount;
    pkg.insuredAmount = bought.insuredAmount;
    pkg.insuranceFee = bought.insuranceFee;
    return label;
  }

  /**
   * POST /packages/{id}/buy-label. The carrier is never asked inside a transaction: the package
   * is checked and what its label needs is read (a first transaction, nothing written); the
   * carrier sells the label; a second transaction records it once, under the package's and its
   * order's locks, if the package may still be labeled. A label the package can no longer take
   * (labeled, shipped or voided meanwhile by another request) is handed back to the carrier and
   * the answer is 409 invalid_state. A refusal is 422 label_purchase_failed (the package inside
   * the body) and changes nothing.
   */
  async buy(packageId: string, rateObjectId: string, fileType: LabelFileType): Promise<PackageResource> {
    const basis = await this.tx.run(async () => {
      const { pkg, insured, order, customer } = await this.labelBasis(packageId);
      const parties = await this.reader.labelParties(pkg.locationId, order.accountId, customer.name);
      return { pkg, insured, parties };
    });
    const purchase = await this.purchase(basis.pkg, rateObjectId, fileType, basis.insured, basis.parties);
    const recorded = await this.tx.run(async () => {
      const pkg = await this.packages.getForUpdate(packageId);
      await this.packages.lockOrder(pkg.orderId);
      if (!purchase.ok || !canMove('buy_label', pkg.status))
        return { pkg, resource: await this.views.presentOne(pkg) };
      await this.labels.insertBuilt([this.applyPurchase(pkg, purchase)]);
      await this.packages.save(pkg);
      const resource = await this.views.presentOne(pkg);
      await this.events.publish('fulfillment.label.purchased', resource);
      return { pkg, resource, recorded: true };
    });
    if (!purchase.ok) throw labelPurchaseFailed(purchase.hint, recorded.resource);
    if (!recorded.recorded) {
      const { pkg } = recorded;
      const answer = await this.handBack(pkg.id, pkg.packageNumber, purchase);
      throw new FulfillmentError('invalid_state', {
        hint: `Package '${pkg.id}' became '${pkg.status}' while its label was being bought; the label bought by this request (tracking number ${purchase.bought.trackingNumber}) was ${
          answer === 'refunded' ? 'handed back to the carrier' : 'not taken back by the carrier'
        }.`,
      });
    }
    return recorded.resource;
  }

  /**
   * Hands a bought label no package records back to the carrier (outside any transaction); a
   * carrier that refuses leaves its price to pay, posted as LABEL_REFUND_DENIED of the package
   * it was bought for. 'unanswered' when the carrier could not be asked.
   */
  async handBack(
    packageId: string,
    packageNumber: string,
    { rate, bought }: Extract<Purchase, { ok: true }>,
  ): Promise<'refunded' | 'rejected' | 'unanswered'> {
    const answer = await askRefund(this.carrier, {
      carrier: rate.carrier,
      service: rate.service,
      trackingNumber: bought.trackingNumber,
      providerShipmentId: bought.providerShipmentId,
    });
    if (answer === 'rejected')
      await this.tx.run(() => this.postings.labelRefundDenied(packageId, packageNumber, bought.amount));
    return answer;
  }

  /**
   * The label file of a package, in the first type of `accept` (an `Accept` header) this label
   * can be served in: a label the API draws (the sandbox's) in PDF, PNG or ZPL II; a carrier's
   * file only in the type it was bought in. No Accept, `*\/*`, or a type list without a label
   * type answers the bought type; a list naming only types this label cannot be is 406.
   */
  async file(
    packageId: string,
    accept?: string,
  ): Promise<{ contentType: string; content: Buffer; fileName: string }> {
    const pkg = await this.packages.getById(packageId);
    const label = await this.labels.fileOf(pkg.id);
    if (!label)
      throw new FulfillmentError('not_found', {
        hint: `Package '${pkg.id}' has no label (status '${pkg.status}'); buy one with POST /v1/packages/${pkg.id}/buy-label.`,
      });
    const bought = label.fileType;
    const available: LabelFileType[] = label.content
      ? [bought]
      : [bought, ...LABEL_FILE_TYPES.filter((t) => t !== bought)];
    const fileType = negotiateLabelType(accept, available);
    if (!fileType)
      throw new FulfillmentError('not_acceptable', {
        hint: `This label is served as ${available.map((t) => CONTENT_TYPES[t]).join(', ')}${
          label.content ? ' (the carrier supplied it in the type it was bought in)' : ''
        }; send one of them, or */*, in Accept.`,
      });
    const extension = fileType === 'ZPLII' ? 'zpl' : fileType.toLowerCase();
    // Drawings kept before labels showed a ship-from block have none.
    const drawing = label.drawing as (Omit<LabelDrawing, 'shipFrom'> & { shipFrom?: string[] }) | null;
    return {
      contentType: CONTENT_TYPES[fileType],
      // A drawn label (the sandbox's) is drawn the same way each time, with the package's number.
      content:
        label.content ??
        renderLabel(fileType, {
          ...drawing!,
          shipFrom: drawing!.shipFrom ?? [],
          packageNumber: pkg.packageNumber,
        }),
      fileName: `${pkg.packageNumber}.${extension}`,
    };
  }
}

export const labelPurchaseFailed = (hint: string, resource: PackageResource) =>
  new FulfillmentError('label_purchase_failed', {
    param: 'rate_object_id',
    hint,
    details: { package: resource },
  });
