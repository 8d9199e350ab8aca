import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger } from '@nestjs/common';
import type { Job } from 'bullmq';
import { EVERY_HOUR, JobSchedules } from '#platform/queue/job-schedules';
import { JobName, QUEUE_NAMES } from '#platform/queue/queues';
import { RecurringJournalEntriesService } from '../application/recurring-journal-entries.service';

/** Posts due recurring journal entries; each occurrence is claimed once, so several workers are safe. */
@Processor(QUEUE_NAMES.accounting)
export class AccountingProcessor extends WorkerHost {
  private readonly logger = new Logger(AccountingProcessor.name);

  constructor(private readonly recurring: RecurringJournalEntriesService) {
    super();
  }

  async process(
    job: Job<unknown, unknown, JobName<'accounting'>>,
  ): Promise<{ posted: number; failed: number }> {
    switch (job.name) {
      case 'run-recurring-entries': {
        const result = await this.recurring.runDue();
        if (result.posted > 0 || result.failed > 0)
          this.logger.log(`recurring entries: ${result.posted} posted, ${result.failed} failed`);
        return result;
      }
      default:
        throw new Error(`Unknown accounting job ${String(job.name)}`);
    }
  }
}

/**
 * Checks hourly: business days start at different instants in different time zones, and an
 * occurrence posts once whatever the number of checks.
 */
export const AccountingScheduler = JobSchedules('accounting', () => ({
  'run-recurring-entries': EVERY_HOUR,
}));
