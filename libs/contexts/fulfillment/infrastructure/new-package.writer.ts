import { Injectable } from '@nestjs/common';
import { outboxInsertStatement, OutboxRow } from '#platform/events/outbox-writer';
import { combinedWrite, TransactionHost } from '#platform/persistence/transaction-host';
import { together } from '#platform/persistence/together';
import {
  PackageItemRecord,
  PackageLabelRecord,
  PackageRecord,
  ShipmentNotificationRecord,
} from './fulfillment.entities';
import {
  FulfillmentSettingsRepository,
  PackageNumber,
  packageNumberOf,
  PackageNumberRow,
} from './fulfillment-settings.repository';
import { PackageItemRepository, unitsByStatusOf } from './package-item.repository';
import { PackageLabelRepository } from './package-label.repository';
import { PackageRepository } from './package.repository';
import { ShipmentNotificationRepository } from './shipment-notification.repository';

/** The statements of POST /packages: the order's lock with what packing reads under it, and the new package's rows and events. */
@Injectable()
export class NewPackageWriter {
  constructor(
    private readonly tx: TransactionHost,
    private readonly packages: PackageRepository,
    private readonly items: PackageItemRepository,
    private readonly labels: PackageLabelRepository,
    private readonly notifications: ShipmentNotificationRepository,
    private readonly settings: FulfillmentSettingsRepository,
  ) {}

  /**
   * Takes the entity's next package number (FulfillmentSettingsRepository.takePackageNumber: a
   * statement that commits on its own, outside any transaction) and reads the units of the
   * order's packages by package status then order line, without the order's packing lock: one
   * statement. For the draft a label is bought for, which the package's transaction checks again
   * under the lock.
   */
  async takeNumberReadingPackedUnits(
    orderId: string,
  ): Promise<PackageNumber & { unitsByStatus: Map<string, Map<string, number>> }> {
    const number = this.settings.packageNumberStatement();
    const [row] = (await this.tx.manager.query(
      `WITH n AS (${number.sql})
       SELECT n.package_number, n.insurance_threshold,
              (SELECT coalesce(json_agg(json_build_object('status', u.status, 'order_item_id', u.order_item_id, 'units', u.units)), '[]')
                 FROM package_line_units u
                WHERE u.entity_id = $2 AND u.livemode = $3 AND u.order_id = $5 AND u.units <> 0) AS units
         FROM n`,
      [...number.params, orderId],
    )) as (PackageNumberRow & { units: { status: string; order_item_id: string; units: number }[] })[];
    return { ...packageNumberOf(row), unitsByStatus: unitsByStatusOf(row.units) };
  }

  /**
   * Locks the order against concurrent packing until commit (PackageRepository.lockOrder) and
   * answers the units of its packages by package status then order line. The read is issued
   * right behind the lock on the transaction's connection (one round trip): the server runs
   * statements in the order they arrive, so it reads once the lock is held.
   */
  async lockOrderForPacking(orderId: string): Promise<Map<string, Map<string, number>>> {
    const [, unitsByStatus] = await together([
      this.packages.lockOrder(orderId),
      this.items.unitsByStatus(orderId),
    ]);
    return unitsByStatus;
  }

  /**
   * Writes the new package, its items, its label and shipment notification when it has them, and
   * its events (outbox rows built by EventPublisher.outboxRow): one statement.
   */
  async write(
    pkg: PackageRecord,
    items: PackageItemRecord[],
    label: PackageLabelRecord | null,
    notification: ShipmentNotificationRecord | null,
    events: readonly OutboxRow[],
  ): Promise<void> {
    const write = combinedWrite([
      this.packages.insertStatement([pkg]),
      this.items.insertStatement(items),
      label ? this.labels.insertStatement([label]) : null,
      notification ? this.notifications.insertStatement([notification]) : null,
      outboxInsertStatement(events),
    ])!;
    await this.tx.transactional.query(write.sql, write.params);
  }
}
