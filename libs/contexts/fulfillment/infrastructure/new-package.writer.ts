import { Injectable } from '@nestjs/common';
import { combinedWrite, TransactionHost } from '#platform/persistence/transaction-host';
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

/**
 * The statements of POST /packages that are cheaper sent together than one by one (measured in
 * docs/performance.md, "Packages with labels and shipping"): the order's lock with the units
 * already packed, and the new package's rows.
 */
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
   * answers the units of its packages by package status then order line. The read is sent right
   * behind the lock, so the server runs it once the lock is held and the two cost one round trip.
   */
  async lockOrderAndReadUnits(orderId: string): Promise<Map<string, Map<string, number>>> {
    const [, rows] = await this.tx.inOrder([
      this.packages.lockOrderStatement(orderId),
      this.items.unitsByStatusStatement(orderId),
    ]);
    return this.items.unitsByStatusOf(rows);
  }

  /**
   * Writes the new package and its items (one statement), then its label and shipment
   * notification when it has them (one more): both leave with the transaction's COMMIT, and a
   * failure of either rolls the transaction back. Inside a caller's open transaction, the
   * package and its items are written at once.
   */
  async write(
    pkg: PackageRecord,
    items: PackageItemRecord[],
    label: PackageLabelRecord | null,
    notification: ShipmentNotificationRecord | null,
  ): Promise<void> {
    await this.tx.sendAtCommit(
      combinedWrite([this.packages.insertStatement([pkg]), this.items.insertStatement(items)])!,
    );
    const labelAndNotification = combinedWrite([
      label ? this.labels.insertStatement([label]) : null,
      notification ? this.notifications.insertStatement([notification]) : null,
    ]);
    if (labelAndNotification) this.tx.sendWithCommit(labelAndNotification);
  }
}
