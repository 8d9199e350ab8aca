import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger } from '@nestjs/common';
import type { Job } from 'bullmq';
import { JobSchedules } from '#platform/queue/job-schedules';
import { JobName, QUEUE_NAMES } from '#platform/queue/queues';
import { DemandAverageRefresher } from '../application/demand-average-refresher.service';
import { REFRESH_JOB } from '../application/demand-refresh-queue';

const SWEEP_JOB = 'sweep-demand-averages';

/**
 * Runs in the dispatcher: refreshes the demand averages of every marked product, when a stock
 * movement queued the refresh after its commit and on the sweep's schedule (marks whose job was
 * lost or never queued). Refreshes of several dispatchers never take the same mark; a failure
 * rethrows (the marks stay for the next refresh).
 */
@Processor(QUEUE_NAMES.replenishment)
export class DemandRefreshProcessor extends WorkerHost {
  private readonly logger = new Logger(DemandRefreshProcessor.name);

  constructor(private readonly refresher: DemandAverageRefresher) {
    super();
  }

  async process(job: Job<unknown, unknown, JobName<'replenishment'>>): Promise<{ refreshed: number }> {
    if (job.name !== REFRESH_JOB && job.name !== SWEEP_JOB)
      throw new Error(`Unknown replenishment job ${String(job.name)}`);
    try {
      return { refreshed: await this.refresher.refreshAllMarked() };
    } catch (error) {
      this.logger.error(`demand average refresh failed: ${String(error)}`);
      throw error;
    }
  }
}

/**
 * The sweep every DEMAND_REFRESH_SWEEP_MS (one scheduler per queue, whatever the replica count);
 * BullMQ runs its first job when the schedule is created.
 */
export const DemandRefreshSweepScheduler = JobSchedules('replenishment', (config) => ({
  [SWEEP_JOB]: config.DEMAND_REFRESH_SWEEP_MS,
}));
