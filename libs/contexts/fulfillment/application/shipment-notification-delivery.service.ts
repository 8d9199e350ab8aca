import { Inject, Injectable } from '@nestjs/common';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { ShipmentNotificationRepository } from '../infrastructure/shipment-notification.repository';
import { SHIPMENT_NOTIFIER, ShipmentNotifier } from './shipment-notifier.port';

/** The worker's half: delivers one queued notification through the notifier and marks it sent. */
@Injectable()
export class ShipmentNotificationDelivery {
  constructor(
    private readonly tx: TransactionHost,
    private readonly notifications: ShipmentNotificationRepository,
    @Inject(SHIPMENT_NOTIFIER) private readonly notifier: ShipmentNotifier,
  ) {}

  async deliver(notificationId: string): Promise<'sent' | 'skipped'> {
    return this.tx.run(async () => {
      const found = await this.notifications.findById(notificationId);
      if (!found || found.status === 'sent') return 'skipped';
      const record = await this.notifications.getForUpdate(found.id);
      if (record.status === 'sent') return 'skipped';
      await this.notifier.send({
        notificationId: record.id,
        packageId: record.packageId,
        recipient: record.recipient,
        subject: record.subject,
        body: record.body,
      });
      record.status = 'sent';
      record.sentAt = new Date();
      record.channel = this.notifier.channel;
      await this.notifications.save(record);
      return 'sent';
    });
  }
}
