import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger } from '@nestjs/common';
import type { Job } from 'bullmq';
import { RateLimiter } from '../auth/rate-limiter';
import { IdempotencyService } from '../http/idempotency/idempotency.service';
import { JobSchedules } from './job-schedules';
import { JobName, QUEUE_NAMES } from './queues';

/** Housekeeping jobs: expired idempotency keys and old rate-limit windows. */
@Processor(QUEUE_NAMES.maintenance)
export class MaintenanceProcessor extends WorkerHost {
  private readonly logger = new Logger(MaintenanceProcessor.name);

  constructor(
    private readonly idempotency: IdempotencyService,
    private readonly rateLimiter: RateLimiter,
  ) {
    super();
  }

  async process(job: Job<unknown, unknown, JobName<'maintenance'>>): Promise<{ purged?: number }> {
    switch (job.name) {
      case 'purge-idempotency-keys': {
        const purged = await this.idempotency.purgeExpired();
        if (purged > 0) this.logger.log(`purged ${purged} expired idempotency keys`);
        return { purged };
      }
      case 'purge-rate-limit-windows':
        await this.rateLimiter.purge();
        return {};
      default:
        throw new Error(`Unknown maintenance job ${String(job.name)}`);
    }
  }
}

/**
 * Schedules the repeatable maintenance jobs once per deployment (job schedulers are idempotent):
 * the idempotency purge every IDEMPOTENCY_PURGE_MS (hourly by default).
 */
export const MaintenanceScheduler = JobSchedules('maintenance', (config) => ({
  'purge-idempotency-keys': config.IDEMPOTENCY_PURGE_MS,
  'purge-rate-limit-windows': 5 * 60 * 1000,
}));
