import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { JobData, QUEUE_NAMES } from '#platform/queue/queues';
import { RequestContext } from '#platform/tenancy/request-context';
import { ShipmentNotificationRecord } from '../infrastructure/fulfillment.entities';
import { ShipmentNotificationRepository } from '../infrastructure/shipment-notification.repository';
import { NOTIFY_JOB } from './shipment-notifier.port';

/** A shipment message to a customer. */
export interface ShipmentMessage {
  packageId: string;
  orderId: string;
  recipient: string | null;
  subject: string;
  body: string;
}

/** The caller recorded for jobs the sweeper queues: no API key asked for them. */
const SYSTEM_SWEEPER_KEY_ID = '00000000-0000-0000-0000-000000000000';

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
  async compose(input: ShipmentMessage): Promise<string> {
    const [record] = await this.notifications.insertBuilt([this.draft(input)]);
    return record.id;
  }

  /** The queued message as a record not yet written (for a writer that inserts it itself). */
  draft(input: ShipmentMessage): ShipmentNotificationRecord {
    return this.notifications.buildMany([{ ...input, channel: 'email', status: 'queued', sentAt: null }])[0];
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

  /**
   * Re-queues delivery of every notification still `queued` though written more than `graceMs`
   * ago: its job was lost (the process stopped between the commit and the enqueue, or the queue
   * lost it). Delivery is idempotent (a sent notification is skipped), and each notification gets
   * at most one sweep job per grace period. Returns how many were re-queued.
   */
  async sweep(graceMs: number, limit = 500): Promise<number> {
    const overdue = await this.notifications.overdueQueued(new Date(Date.now() - graceMs), limit);
    const tick = Math.floor(Date.now() / graceMs);
    for (const n of overdue) {
      const data: JobData<'fulfillment', typeof NOTIFY_JOB> = {
        entityId: n.entity_id,
        entityCode: '',
        livemode: n.livemode,
        apiKeyId: SYSTEM_SWEEPER_KEY_ID,
        notificationId: n.id,
      };
      await this.queue.add(NOTIFY_JOB, data, {
        jobId: `sweep-${n.id}-${tick}`,
        attempts: 5,
        backoff: { type: 'exponential', delay: 1000 },
        removeOnComplete: 1000,
        removeOnFail: 5000,
      });
    }
    return overdue.length;
  }

  async ofPackage(packageId: string) {
    return (await this.notifications.ofPackage(packageId)).map(toNotificationResource);
  }
}
