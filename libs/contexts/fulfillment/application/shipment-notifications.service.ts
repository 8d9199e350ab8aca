import { InjectQueue } from '@nestjs/bullmq';
import { Inject, Injectable } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { TransactionHost } from '../../../platform/persistence/transaction-host';
import { JobData, QUEUE_NAMES } from '../../../platform/queue/queues';
import { RequestContext } from '../../../platform/tenancy/request-context';
import { ShipmentNotificationRecord } from '../infrastructure/fulfillment.entities';
import { ShipmentNotificationRepository } from '../infrastructure/fulfillment.repositories';
import { NOTIFY_JOB, SHIPMENT_NOTIFIER, ShipmentNotifier } from './shipment-notifier.port';

export const toNotificationResource = (n: ShipmentNotificationRecord) => ({
  id: n.id,
  object: 'shipment_notification' as const,
  package_id: n.packageId,
  order_id: n.orderId,
  channel: n.channel,
  recipient: n.recipient,
  subject: n.subject,
  body: n.body,
  status: n.status,
  sent_at: n.sentAt ? n.sentAt.toISOString() : null,
  created_at: n.createdAt.toISOString(),
});

/**
 * Shipment notifications: the message is written in the shipping transaction (status
 * `queued`), a BullMQ job delivers it through the notifier after commit; the dispatcher app
 * runs the job.
 */
@Injectable()
export class ShipmentNotifications {
  constructor(
    private readonly tx: TransactionHost,
    private readonly notifications: ShipmentNotificationRepository,
    @InjectQueue(QUEUE_NAMES.fulfillment) private readonly queue: Queue,
  ) {}

  /** Writes the queued message (inside the caller's transaction); returns its id for enqueue(). */
  async compose(input: {
    packageId: string;
    orderId: string;
    recipient: string | null;
    subject: string;
    body: string;
  }): Promise<string> {
    const record = await this.notifications.create({
      ...input,
      channel: 'email',
      status: 'queued',
      sentAt: null,
    });
    return record.id;
  }

  /** Queues delivery jobs once the shipping transaction committed. */
  async enqueue(ids: string[]): Promise<void> {
    const caller = RequestContext.caller();
    for (const notificationId of ids) {
      const data: JobData<'fulfillment', typeof NOTIFY_JOB> = {
        entityId: caller.entityId,
        entityCode: caller.entityCode,
        livemode: caller.livemode,
        apiKeyId: caller.apiKeyId,
        notificationId,
      };
      await this.queue.add(NOTIFY_JOB, data, {
        attempts: 5,
        backoff: { type: 'exponential', delay: 1000 },
        removeOnComplete: 1000,
        removeOnFail: 5000,
      });
    }
  }

  async ofPackage(packageId: string) {
    return (await this.notifications.ofPackage(packageId)).map(toNotificationResource);
  }
}

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
