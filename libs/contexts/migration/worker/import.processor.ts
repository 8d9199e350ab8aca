import { OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import {
  BeforeApplicationShutdown,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnModuleDestroy,
} from '@nestjs/common';
import type { Job } from 'bullmq';
import { AppConfig } from '#platform/config/app-config';
import { DomainError } from '#platform/errors/domain-error';
import { JobData, JobName, QUEUE_NAMES } from '#platform/queue/queues';
import { RerunningTask } from '#platform/queue/rerunning-task';
import { WorkerLocks, workerLocks } from '#platform/queue/worker-locks';
import { ImportInterruptedError, ImportRunner } from '../application/import-runner';
import { ImportsService } from '../application/imports.service';

/** What BullMQ fails a job with when it was taken back from dead workers more than allowed. */
const STALLED_OUT = 'job stalled more than allowable limit';

/**
 * The `failure_reason` an import shows: a database or programming error is not the client's to
 * read (its details go to the log with the import id), a business error or a stall limit is.
 */
function failureReason(error: Error, attempts: number, maxStalls: number): string {
  if (error.message === STALLED_OUT)
    return `The worker running the import stopped more than ${maxStalls} times before it finished.`;
  if (error instanceof DomainError || error.name === 'UnrecoverableError') return error.message;
  return `An internal error stopped each of the import's ${attempts} attempt(s); the rows committed before it stay imported.`;
}

/** The import worker's stall policy, set from the configuration when the processor is built. */
const IMPORT_WORKER: WorkerLocks = {};

/**
 * Runs bulk imports; stops between batches on shutdown so the next worker resumes at the
 * checkpoint. How each end of a job ends or resumes its import:
 * - completed: the run completed the import (or found it finished);
 * - failed with attempts left: BullMQ runs the job again, which resumes at the checkpoint;
 * - failed for good (attempts used up, or an unrecoverable error): the import fails with the error;
 * - stalled (its worker died): the job is taken back within 2 × QUEUE_LOCK_MS and resumes; after
 *   IMPORT_MAX_STALLS of those the next death fails the import instead of looping;
 * - interrupted by a shutdown on its last attempt, removed, or lost with the queue's data: the
 *   sweeper (ImportSweeper) queues the import again.
 */
@Processor(QUEUE_NAMES['migration-imports'], IMPORT_WORKER)
export class ImportProcessor extends WorkerHost implements OnModuleDestroy {
  private readonly logger = new Logger(ImportProcessor.name);
  private stopping = false;

  constructor(
    private readonly runner: ImportRunner,
    private readonly config: AppConfig,
  ) {
    super();
    Object.assign(IMPORT_WORKER, workerLocks(config, config.IMPORT_MAX_STALLS));
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
    // An interrupted attempt is retried; on the last attempt the sweeper queues the import again.
    if (!job || error instanceof ImportInterruptedError) return;
    const final = error.name === 'UnrecoverableError' || job.attemptsMade >= (job.opts.attempts ?? 1);
    this.logger.error(
      { err: error, import_id: job.data.importId, attempt: job.attemptsMade, final },
      'import attempt failed',
    );
    if (!final) return;
    const reason = failureReason(error, job.attemptsMade, this.config.IMPORT_MAX_STALLS);
    try {
      await this.runner.markFailed(job.data.importId, reason);
    } catch (markError) {
      // The import stays unfinished with a failed job: the sweeper queues it again.
      this.logger.warn({ err: markError, import_id: job.data.importId }, 'could not mark the import failed');
    }
  }
}

const PURGE_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Queues again the unfinished imports whose job is gone or failed: at worker start-up, then
 * every IMPORT_SWEEP_INTERVAL_MS (a lost job loses nothing: PostgreSQL holds the truth). Imports
 * changed within 2 × QUEUE_LOCK_MS are left alone: their job is running, or about to be failed
 * or taken back by BullMQ. At start-up and then hourly it also deletes the rows of uploads that
 * never became an import.
 */
@Injectable()
export class ImportSweeper implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(ImportSweeper.name);
  private timer?: NodeJS.Timeout;
  /** When import rows that no unfinished import will read are next looked for (at start-up, then hourly). */
  private nextPurge = 0;
  private readonly rounds = new RerunningTask(
    () => this.sweep(),
    (error) => this.logger.warn(`import sweep failed (will retry): ${String(error)}`),
  );

  constructor(
    private readonly imports: ImportsService,
    private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.rounds.start();
    await this.rounds.idle();
    this.timer = setInterval(() => this.rounds.start(), this.config.IMPORT_SWEEP_INTERVAL_MS);
  }

  /** Stops before the queues close (this loop queues jobs, and an add to a closing queue may never settle). */
  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.rounds.stop();
  }

  private async sweep(): Promise<void> {
    const resumed = await this.imports.resumeStranded(2 * this.config.QUEUE_LOCK_MS);
    if (resumed.length > 0)
      this.logger.warn({ import_ids: resumed }, 'queued again imports whose job was gone or failed');
    if (Date.now() < this.nextPurge) return;
    this.nextPurge = Date.now() + PURGE_INTERVAL_MS;
    const purged = await this.imports.purgeUnreadRows();
    if (purged > 0)
      this.logger.warn({ rows: purged }, 'deleted import rows that no unfinished import will read');
  }
}
