import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger } from '@nestjs/common';
import type { Job } from 'bullmq';
import { JobSchedules } from '#platform/queue/job-schedules';
import { JobName, QUEUE_NAMES } from '#platform/queue/queues';
import { CollectionsRun, CollectionsService } from '../application/collections.service';

/**
 * Runs the collections sweep. BullMQ's job scheduler starts it on one worker per period, and
 * the sweep itself is safe to run anywhere at once (each invoice under a SKIP LOCKED row lock),
 * so replicas, retries and a run by hand never mark or charge an invoice twice.
 */
@Processor(QUEUE_NAMES.sales)
export class CollectionsProcessor extends WorkerHost {
  private readonly logger = new Logger(CollectionsProcessor.name);

  constructor(private readonly collections: CollectionsService) {
    super();
  }

  async process(job: Job<unknown, unknown, JobName<'sales'>>): Promise<CollectionsRun> {
    switch (job.name) {
      case 'run-collections': {
        const run = await this.collections.runDue();
        if (run.overdue > 0 || run.late_fees > 0 || run.skipped > 0)
          this.logger.log(
            `collections: ${run.overdue} overdue, ${run.late_fees} late fees, ${run.skipped} skipped`,
          );
        return run;
      }
      default:
        throw new Error(`Unknown sales job ${String(job.name)}`);
    }
  }
}

/** Hourly by default: business days start at different instants in different time zones. */
export const CollectionsScheduler = JobSchedules('sales', (config) => ({
  'run-collections': config.COLLECTIONS_SWEEP_MS,
}));
