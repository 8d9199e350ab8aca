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
import { PackageItemRepository } from './package-item.repository';
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
  ) {}

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
