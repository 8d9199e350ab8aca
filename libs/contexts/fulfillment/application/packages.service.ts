import { Inject, Injectable } from '@nestjs/common';
import { previousAttributes } from '#platform/events/previous-attributes';
import { EventPublisher } from '#platform/events/event-publisher';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { listEnvelope, ListPage } from '#platform/http/list/paginate';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { ReferenceListService } from '#platform/reference-lists/reference-list.service';
import { LOCATIONS_SERVICE } from '#contexts/inventory';
import { FulfillmentError } from '../domain/fulfillment-error';
import { packageTransition, PackageStatus } from '../domain/package';
import { applyPackageFields, assertLocationExists, PackageFields } from '../domain/package-fields';
import { PackageRecord } from '../infrastructure/fulfillment.entities';
import { PackageFilters, PackageRepository } from '../infrastructure/package.repository';
import { PackageItemRepository } from '../infrastructure/package-item.repository';
import { PackageResource } from './package.presenter';
import { PackageViews } from './package-views.service';
import { ShipmentNotifications } from './shipment-notifications.service';

/**
 * Packages read, changed and moved within fulfillment (edit, pack, deliver). Creating, shipping
 * and voiding a package are use cases of their own (application/packages/).
 */
@Injectable()
export class PackagesService {
  constructor(
    private readonly tx: TransactionHost,
    private readonly packages: PackageRepository,
    private readonly items: PackageItemRepository,
    private readonly views: PackageViews,
    private readonly notifications: ShipmentNotifications,
    @Inject(LOCATIONS_SERVICE) private readonly locations: ReferenceListService,
    private readonly events: EventPublisher,
  ) {}

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
      const boxes = await this.views.products(input.box_product_id ? [input.box_product_id] : []);
      applyPackageFields(pkg, input, boxes);
      if (input.location_id) await assertLocationExists(this.locations, input.location_id);
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

  async deliver(id: string): Promise<PackageResource> {
    return this.tx.run(async () => {
      const pkg = await this.packages.getForUpdate(id);
      packageTransition('deliver', pkg.status, pkg.id);
      pkg.deliveredAt = new Date();
      return this.move(pkg, 'deliver', 'fulfillment.delivered');
    });
  }

  async notificationsOf(id: string) {
    const pkg = await this.packages.getById(id);
    const data = await this.notifications.ofPackage(pkg.id);
    return { object: 'list' as const, data, has_more: false, url: `/v1/packages/${pkg.id}/notifications` };
  }

  private async move(
    pkg: PackageRecord,
    action: 'pack' | 'deliver',
    event: 'fulfillment.package.updated' | 'fulfillment.delivered',
  ): Promise<PackageResource> {
    const previous: PackageStatus = pkg.status;
    pkg.status = packageTransition(action, pkg.status, pkg.id);
    const resource = await this.views.presentOne(await this.packages.save(pkg));
    await this.events.publish(event, resource, { status: previous });
    return resource;
  }
}
