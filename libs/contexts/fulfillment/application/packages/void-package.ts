import { Inject, Injectable } from '@nestjs/common';
import { EventPublisher } from '#platform/events/event-publisher';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { FulfillmentError } from '../../domain/fulfillment-error';
import { packageTransition } from '../../domain/package';
import { PackageLabelRecord } from '../../infrastructure/fulfillment.entities';
import { PackageLabelRepository } from '../../infrastructure/package-label.repository';
import { PackageRepository } from '../../infrastructure/package.repository';
import { FulfillmentPostings } from '../fulfillment-postings.service';
import { askRefund, CARRIER_GATEWAY, CarrierGateway } from '../carrier.port';
import { PackageResource } from '../package.presenter';
import { PackageViews } from '../package-views.service';

/**
 * POST /packages/{id}/void: a package that has not shipped is given up; its units go back to the
 * order lines (a void package holds none) and a bought label is handed back to the carrier
 * (docs/reference/resources.md, "Packages"; LABEL_REFUND_DENIED: docs/reference/accounting.md).
 */
@Injectable()
export class VoidPackage {
  constructor(
    private readonly tx: TransactionHost,
    private readonly packages: PackageRepository,
    private readonly labels: PackageLabelRepository,
    @Inject(CARRIER_GATEWAY) private readonly carrier: CarrierGateway,
    private readonly postings: FulfillmentPostings,
    private readonly views: PackageViews,
    private readonly events: EventPublisher,
  ) {}

  /**
   * The carrier is never asked inside a transaction:
   * 1. Transaction one: the package and its order locked, the package `void` (which keeps it from
   *    shipping or taking a label meanwhile). Without a label to hand back, it is done here and
   *    `fulfillment.package.voided` is emitted.
   * 2. No transaction: the carrier is asked to take the label back.
   * 3. Transaction two: its answer recorded once (`refund_status`; LABEL_REFUND_DENIED when
   *    rejected) and `fulfillment.package.voided` emitted. No answer: 503 service_unavailable, the
   *    package void with its label's refund unanswered; voiding it again asks the carrier again.
   */
  async void(id: string): Promise<PackageResource> {
    const voided = await this.tx.run(async () => {
      const pkg = await this.packages.getForUpdate(id);
      await this.packages.lockOrder(pkg.orderId);
      const label = await this.unrefundedLabel(pkg.id);
      // A void package whose label refund was never answered: asked again below.
      if (pkg.status === 'void' && label) return { label, previous: null };
      const previous = pkg.status;
      pkg.status = packageTransition('void', pkg.status, pkg.id);
      pkg.voidedAt = new Date();
      await this.packages.save(pkg);
      if (label) return { label, previous };
      const resource = await this.views.presentOne(pkg);
      await this.events.publish('fulfillment.package.voided', resource, { status: previous });
      return { resource };
    });
    if (voided.resource) return voided.resource;
    const { label, previous } = voided;
    const answer = await askRefund(this.carrier, {
      carrier: label.carrier,
      service: label.serviceLevel,
      trackingNumber: label.trackingNumber,
      providerShipmentId: label.providerShipmentId,
    });
    if (answer === 'unanswered')
      throw new FulfillmentError('service_unavailable', {
        hint: `Package '${id}' is void, but the carrier did not answer the refund of its label (tracking number ${label.trackingNumber}); void the package again to ask again.`,
      });
    return this.tx.run(async () => {
      const pkg = await this.packages.getForUpdate(id);
      const recorded = await this.unrefundedLabel(pkg.id);
      // Recorded already, by a request that asked at the same time: answer the package as it is.
      if (!recorded) return this.views.presentOne(pkg);
      recorded.refundStatus = answer;
      await this.labels.save(recorded);
      if (answer === 'rejected')
        await this.postings.labelRefundDenied(pkg.id, pkg.packageNumber, recorded.amount);
      const resource = await this.views.presentOne(pkg);
      await this.events.publish(
        'fulfillment.package.voided',
        resource,
        previous ? { status: previous } : undefined,
      );
      return resource;
    });
  }

  /** The package's label whose refund the carrier has not answered yet (null when none). */
  private async unrefundedLabel(packageId: string): Promise<PackageLabelRecord | null> {
    const label = (await this.labels.ofPackages([packageId])).get(packageId);
    return label && !label.refundStatus ? label : null;
  }
}
