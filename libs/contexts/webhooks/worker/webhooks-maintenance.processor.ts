import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger } from '@nestjs/common';
import type { Job } from 'bullmq';
import { AppConfig } from '#platform/config/app-config';
import { JobSchedules } from '#platform/queue/job-schedules';
import { JobData, JobName, QUEUE_NAMES } from '#platform/queue/queues';
import { DeliveryAttemptRepository } from '../infrastructure/delivery-attempt.repository';
import { OutboxDispatchRepository } from '../infrastructure/outbox-dispatch.repository';
import { DeliveryScheduler } from '../application/delivery-ports';

const PURGE_BATCH = 5_000;

/** Background jobs of the webhooks context: endpoint recovery and event retention. */
@Processor(QUEUE_NAMES.webhooks)
export class WebhooksMaintenanceProcessor extends WorkerHost {
  private readonly logger = new Logger(WebhooksMaintenanceProcessor.name);

  constructor(
    private readonly attempts: DeliveryAttemptRepository,
    private readonly outbox: OutboxDispatchRepository,
    private readonly deliveries: DeliveryScheduler,
    private readonly config: AppConfig,
  ) {
    super();
  }

  async process(job: Job<unknown, unknown, JobName<'webhooks'>>): Promise<Record<string, number>> {
    switch (job.name) {
      case 'recover-endpoint':
        return { requeued: await this.recover(job.data as JobData<'webhooks', 'recover-endpoint'>) };
      case 'purge-events':
        return this.purge();
      default:
        throw new Error(`Unknown webhooks job ${String(job.name)}`);
    }
  }

  /** Re-queues the endpoint's failed deliveries created since `since`, oldest first; each gets one new attempt. */
  async recover(data: JobData<'webhooks', 'recover-endpoint'>): Promise<number> {
    const rows = await this.attempts.requeueFailedSince(data);
    const ordered = rows.sort((a, b) => (a.id < b.id ? -1 : 1));
    await this.deliveries.enqueue(ordered.map((r) => ({ id: r.id, attempt: r.attempt_count + 1 })));
    this.logger.log(`recovered ${ordered.length} deliveries of endpoint ${data.endpointId}`);
    return ordered.length;
  }

  /** Deletes events past the retention period, and finished deliveries of the same age. */
  async purge(): Promise<{ events: number; deliveries: number }> {
    const days = this.config.EVENT_RETENTION_DAYS;
    let events = 0;
    let deliveries = 0;
    for (;;) {
      const n = await this.outbox.purgeDispatched(days, PURGE_BATCH);
      events += n;
      if (n < PURGE_BATCH) break;
    }
    for (;;) {
      const n = await this.attempts.purgeFinished(days, PURGE_BATCH);
      deliveries += n;
      if (n < PURGE_BATCH) break;
    }
    if (events + deliveries > 0)
      this.logger.log(`purged ${events} events and ${deliveries} deliveries older than ${days} days`);
    return { events, deliveries };
  }
}

/**
 * Schedules the event purge every EVENT_PURGE_MS (hourly by default) once per deployment (job
 * schedulers are idempotent).
 */
export const WebhooksMaintenanceScheduler = JobSchedules('webhooks', (config) => ({
  'purge-events': config.EVENT_PURGE_MS,
}));
