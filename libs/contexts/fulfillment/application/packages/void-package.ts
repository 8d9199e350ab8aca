import { Injectable } from '@nestjs/common';
import { EventPublisher } from '#platform/events/event-publisher';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { packageTransition } from '../../domain/package';
import { PackageRepository } from '../../infrastructure/package.repository';
import { FulfillmentPostings } from '../fulfillment-postings.service';
import { LabelsService } from '../labels.service';
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
    private readonly labels: LabelsService,
    private readonly postings: FulfillmentPostings,
    private readonly views: PackageViews,
    private readonly events: EventPublisher,
  ) {}

  async void(id: string): Promise<PackageResource> {
    return this.tx.run(async () => {
      const pkg = await this.packages.getForUpdate(id);
      await this.packages.lockOrder(pkg.orderId);
      const previous = pkg.status;
      pkg.status = packageTransition('void', pkg.status, pkg.id);
      const label = await this.labels.refundInside(pkg);
      if (label?.refundStatus === 'rejected')
        await this.postings.labelRefundDenied(pkg.id, pkg.packageNumber, label.amount);
      pkg.voidedAt = new Date();
      const resource = await this.views.presentOne(await this.packages.save(pkg));
      await this.events.publish('fulfillment.package.voided', resource, { status: previous });
      return resource;
    });
  }
}
