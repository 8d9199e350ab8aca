import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger } from '@nestjs/common';
import type { Job } from 'bullmq';
import { AppConfig } from '#platform/config/app-config';
import { JobSchedules } from '#platform/queue/job-schedules';
import { JobData, JobName, QUEUE_NAMES } from '#platform/queue/queues';
import { runJobAs } from '#platform/queue/run-job';
import { NOTIFY_JOB } from '../application/shipment-notifier.port';
import { ShipmentNotificationDelivery } from '../application/shipment-notification-delivery.service';
import { ShipmentNotifications } from '../application/shipment-notifications.service';

const SWEEP_JOB = 'sweep-shipment-notifications';

/**
 * Runs in the dispatcher: delivers one queued shipment notification, or sweeps for notifications
 * whose job was lost. Errors rethrow so BullMQ retries.
 */
@Processor(QUEUE_NAMES.fulfillment)
export class ShipmentNotificationProcessor extends WorkerHost {
  private readonly logger = new Logger(ShipmentNotificationProcessor.name);

  constructor(
    private readonly delivery: ShipmentNotificationDelivery,
    private readonly notifications: ShipmentNotifications,
    private readonly config: AppConfig,
  ) {
    super();
  }

  async process(job: Job<unknown, unknown, JobName<'fulfillment'>>): Promise<{ result: string | number }> {
    if (job.name === SWEEP_JOB) {
      const requeued = await this.notifications.sweep(this.config.SHIPMENT_NOTIFICATION_SWEEP_MS);
      if (requeued > 0) this.logger.warn(`re-queued ${requeued} shipment notifications whose job was lost`);
      return { result: requeued };
    }
    if (job.name !== NOTIFY_JOB) throw new Error(`Unknown fulfillment job ${String(job.name)}`);
    const data = job.data as JobData<'fulfillment', typeof NOTIFY_JOB>;
    const caller = {
      entityId: data.entityId,
      entityCode: data.entityCode,
      livemode: data.livemode,
      apiKeyId: data.apiKeyId,
      scopes: ['fulfillment:write'],
    };
    const result = await runJobAs(job, caller, () => this.delivery.deliver(data.notificationId));
    return { result };
  }
}

/** Schedules the sweep in the dispatcher (one scheduler per queue, whatever the replica count). */
export const ShipmentNotificationSweepScheduler = JobSchedules('fulfillment', (config) => ({
  [SWEEP_JOB]: config.SHIPMENT_NOTIFICATION_SWEEP_MS,
}));
