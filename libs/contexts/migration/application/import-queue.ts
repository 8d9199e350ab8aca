import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { AppConfig } from '#platform/config/app-config';
import { JobData, QUEUE_NAMES } from '#platform/queue/queues';

/** Enqueues an import's job; the job id is the import id, so enqueueing twice runs it once. */
@Injectable()
export class ImportQueue {
  constructor(
    @InjectQueue(QUEUE_NAMES['migration-imports']) private readonly queue: Queue,
    private readonly config: AppConfig,
  ) {}

  async enqueue(data: JobData<'migration-imports', 'run-import'>): Promise<void> {
    await this.queue.add('run-import', data, {
      jobId: data.importId,
      // A worker stopped mid-run fails the attempt; the next attempt resumes at the checkpoint.
      attempts: this.config.IMPORT_MAX_ATTEMPTS,
      backoff: { type: 'fixed', delay: 500 },
      removeOnComplete: true,
      removeOnFail: 1000,
    });
  }

  /**
   * Makes sure an import has a job that will run: none is added while its job waits, runs or is
   * delayed for a retry; a job that is gone is added again, and a failed (or completed) one is
   * replaced, since the job id is the import id. True when a job was added.
   */
  async ensure(data: JobData<'migration-imports', 'run-import'>): Promise<boolean> {
    const job = await this.queue.getJob(data.importId);
    if (job) {
      const state = await job.getState();
      if (state !== 'failed' && state !== 'completed') return false;
      try {
        await job.remove();
      } catch {
        // Taken meanwhile (another dispatcher replaced it and a worker holds it): nothing to do.
        return false;
      }
    }
    await this.enqueue(data);
    return true;
  }
}
