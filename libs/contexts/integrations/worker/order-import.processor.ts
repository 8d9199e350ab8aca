import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger } from '@nestjs/common';
import type { Job } from 'bullmq';
import { JobSchedules } from '#platform/queue/job-schedules';
import { JobName, QUEUE_NAMES } from '#platform/queue/queues';
import { runJobAs } from '#platform/queue/run-job';
import { OrderImportService } from '../application/order-import.service';

export const IMPORT_ALL_JOB = 'import-all-integrations';

/**
 * Runs in the dispatcher: the scheduled pull. The job has one scheduler whatever the replica
 * count, so one worker runs each round; it imports every connected integration in turn as that
 * integration's entity and mode. Two imports of the same order (a round and a request at once)
 * still make one sales order: its import row is unique.
 */
@Processor(QUEUE_NAMES.integrations)
export class OrderImportProcessor extends WorkerHost {
  private readonly logger = new Logger(OrderImportProcessor.name);

  constructor(private readonly imports: OrderImportService) {
    super();
  }

  async process(job: Job<unknown, unknown, JobName<'integrations'>>): Promise<{ runs: number }> {
    if (job.name !== IMPORT_ALL_JOB) throw new Error(`Unknown integrations job ${String(job.name)}`);
    const connected = await this.imports.connected();
    let runs = 0;
    for (const integration of connected) {
      const caller = {
        entityId: integration.entityId,
        livemode: integration.livemode,
        scopes: ['integrations:write'],
      };
      const run = await runJobAs(job, caller, () => this.imports.importScheduled(integration.id));
      if (run?.status === 'failed')
        this.logger.warn({ integration_id: integration.id, run_id: run.id }, 'integration import failed');
      if (run) runs++;
    }
    return { runs };
  }
}

/** Schedules the pull in the dispatcher every INTEGRATION_IMPORT_INTERVAL_MS. */
export const OrderImportScheduler = JobSchedules('integrations', (config) => ({
  [IMPORT_ALL_JOB]: config.INTEGRATION_IMPORT_INTERVAL_MS,
}));
