import { InjectQueue, Processor, WorkerHost } from '@nestjs/bullmq';
import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import type { Job, Queue } from 'bullmq';
import { EVERY_HOUR, JobName, QUEUE_NAMES, scheduleEvery } from '#platform/queue/queues';
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
@Injectable()
export class AccountingScheduler implements OnApplicationBootstrap {
  constructor(@InjectQueue(QUEUE_NAMES.accounting) private readonly queue: Queue) {}

  async onApplicationBootstrap(): Promise<void> {
    await scheduleEvery<'accounting'>(this.queue, 'run-recurring-entries', EVERY_HOUR);
  }
}
