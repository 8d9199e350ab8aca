import { Injectable } from '@nestjs/common';
import { TenantRepository } from '#platform/persistence/tenant-repository';
import { ShipmentNotificationRecord } from './fulfillment.entities';

@Injectable()
export class ShipmentNotificationRepository extends TenantRepository.of(
  ShipmentNotificationRecord,
  'shipment notification',
) {
  /** The notifications of a package, oldest first. */
  async ofPackage(packageId: string): Promise<ShipmentNotificationRecord[]> {
    return (await this.groupedBy('packageId', 'package_id', [packageId])).get(packageId)!;
  }

  /**
   * Notifications of every entity still `queued` though created before `before`, oldest first
   * (the sweeper's read: it runs for no entity, so it is not scoped to one).
   */
  async overdueQueued(
    before: Date,
    limit: number,
  ): Promise<{ id: string; entity_id: string; livemode: boolean }[]> {
    return this.tx.manager.query(
      `SELECT id, entity_id, livemode FROM shipment_notifications
        WHERE status = 'queued' AND created_at < $1 ORDER BY created_at LIMIT $2`,
      [before, limit],
    );
  }
}
