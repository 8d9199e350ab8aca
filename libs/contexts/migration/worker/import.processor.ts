import { OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { Job } from 'bullmq';
import { JobData, JobName, QUEUE_NAMES } from '#platform/queue/queues';
import { ImportInterruptedError, ImportRunner } from '../application/import-runner';
import { ImportsService } from '../application/imports.service';

/** Runs bulk imports; stops between batches on shutdown so the next worker resumes at the checkpoint. */
@Processor(QUEUE_NAMES['migration-imports'])
export class ImportProcessor extends WorkerHost implements OnModuleDestroy {
  private readonly logger = new Logger(ImportProcessor.name);
  private stopping = false;

  constructor(private readonly runner: ImportRunner) {
    super();
  }

  onModuleDestroy(): void {
    this.stopping = true;
  }

  async process(
    job: Job<JobData<'migration-imports', 'run-import'>, void, JobName<'migration-imports'>>,
  ): Promise<void> {
    switch (job.name) {
      case 'run-import':
        await this.runner.run(job.data.importId, () => this.stopping);
        return;
      default:
        throw new Error(`Unknown migration job ${String(job.name)}`);
    }
  }

  @OnWorkerEvent('failed')
  async onFailed(
    job: Job<JobData<'migration-imports', 'run-import'>> | undefined,
    error: Error,
  ): Promise<void> {
    if (!job || error instanceof ImportInterruptedError) return;
    this.logger.error(
      { err: error, import_id: job.data.importId, attempt: job.attemptsMade },
      'import attempt failed',
    );
    if (job.attemptsMade >= (job.opts.attempts ?? 1))
      await this.runner.markFailed(job.data.importId, error.message);
  }
}

/** At worker start-up, queues again every unfinished import (a lost job loses nothing: PostgreSQL holds the truth). */
@Injectable()
export class ImportSweeper implements OnApplicationBootstrap {
  constructor(private readonly imports: ImportsService) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.imports.requeueUnfinished();
  }
}
