import { Processor, WorkerHost } from '@nestjs/bullmq';
import type { Job } from 'bullmq';
import { JobData, JobName, QUEUE_NAMES } from '../../../platform/queue/queues';
import { RequestContext } from '../../../platform/tenancy/request-context';
import { NOTIFY_JOB } from '../application/shipment-notifier.port';
import { ShipmentNotificationDelivery } from '../application/shipment-notifications.service';

/** Runs in the dispatcher: delivers one queued shipment notification. Errors rethrow so BullMQ retries. */
@Processor(QUEUE_NAMES.fulfillment)
export class ShipmentNotificationProcessor extends WorkerHost {
  constructor(private readonly delivery: ShipmentNotificationDelivery) {
    super();
  }

  async process(
    job: Job<JobData<'fulfillment', typeof NOTIFY_JOB>, unknown, JobName<'fulfillment'>>,
  ): Promise<{ result: string }> {
    if (job.name !== NOTIFY_JOB) throw new Error(`Unknown fulfillment job ${String(job.name)}`);
    const data = job.data;
    const caller = {
      entityId: data.entityId,
      entityCode: data.entityCode,
      livemode: data.livemode,
      apiKeyId: data.apiKeyId,
      scopes: new Set(['fulfillment:write']),
    };
    const result = await RequestContext.runAs(
      caller,
      () => this.delivery.deliver(data.notificationId),
      `job_${job.id ?? ''}`,
    );
    return { result };
  }
}
