import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger } from '@nestjs/common';
import type { Job } from 'bullmq';
import { DataSource } from 'typeorm';
import { AppConfig } from '#platform/config/app-config';
import { EVERY_HOUR, JobSchedules } from '#platform/queue/job-schedules';
import { JobData, JobName, QUEUE_NAMES } from '#platform/queue/queues';
import { DeliveryScheduler } from '../application/delivery-ports';

const PURGE_BATCH = 5_000;

/** Background jobs of the webhooks context: endpoint recovery and event retention. */
@Processor(QUEUE_NAMES.webhooks)
export class WebhooksMaintenanceProcessor extends WorkerHost {
  private readonly logger = new Logger(WebhooksMaintenanceProcessor.name);

  constructor(
    private readonly dataSource: DataSource,
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
    const [rows] = (await this.dataSource.query(
      `UPDATE webhook_deliveries d
          SET status = 'pending', last_attempt = d.attempt_count + 1, next_retry_at = now(), claimed_until = NULL,
              updated_at = now(), version = d.version + 1
         FROM webhook_endpoints e
        WHERE d.endpoint_id = $1 AND d.entity_id = $2 AND d.livemode = $3 AND d.status = 'failed' AND d.created_at >= $4
          AND e.id = d.endpoint_id AND e.status = 'active' AND e.deleted_at IS NULL
        RETURNING d.id, d.attempt_count`,
      [data.endpointId, data.entityId, data.livemode, data.since],
    )) as [{ id: string; attempt_count: number }[], number];
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
      const [, n] = (await this.dataSource.query(
        `DELETE FROM outbox_events WHERE id IN (
           SELECT id FROM outbox_events WHERE created_at < now() - $1 * interval '1 day' AND dispatched_at IS NOT NULL LIMIT $2)`,
        [days, PURGE_BATCH],
      )) as [unknown, number];
      events += n;
      if (n < PURGE_BATCH) break;
    }
    for (;;) {
      const [, n] = (await this.dataSource.query(
        `DELETE FROM webhook_deliveries WHERE id IN (
           SELECT id FROM webhook_deliveries WHERE created_at < now() - $1 * interval '1 day' AND status <> 'pending' LIMIT $2)`,
        [days, PURGE_BATCH],
      )) as [unknown, number];
      deliveries += n;
      if (n < PURGE_BATCH) break;
    }
    if (events + deliveries > 0)
      this.logger.log(`purged ${events} events and ${deliveries} deliveries older than ${days} days`);
    return { events, deliveries };
  }
}

/** Schedules the hourly event purge once per deployment (job schedulers are idempotent). */
export const WebhooksMaintenanceScheduler = JobSchedules('webhooks', () => ({ 'purge-events': EVERY_HOUR }));
