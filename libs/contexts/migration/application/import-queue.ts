import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { JobData, QUEUE_NAMES } from '#platform/queue/queues';

/** Enqueues an import's job; the job id is the import id, so enqueueing twice runs it once. */
@Injectable()
export class ImportQueue {
  constructor(@InjectQueue(QUEUE_NAMES['migration-imports']) private readonly queue: Queue) {}

  async enqueue(data: JobData<'migration-imports', 'run-import'>): Promise<void> {
    await this.queue.add('run-import', data, {
      jobId: data.importId,
      // A worker stopped mid-run fails the attempt; the next attempt resumes at the checkpoint.
      attempts: 20,
      backoff: { type: 'fixed', delay: 500 },
      removeOnComplete: true,
      removeOnFail: 1000,
    });
  }
}
