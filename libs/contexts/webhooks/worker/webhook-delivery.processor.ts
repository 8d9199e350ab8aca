import { Processor, WorkerHost } from '@nestjs/bullmq';
import { OnApplicationBootstrap } from '@nestjs/common';
import type { Job } from 'bullmq';
import { AppConfig } from '#platform/config/app-config';
import { JobData, JobName, QUEUE_NAMES } from '#platform/queue/queues';
import { WorkerLocks, workerLocks } from '#platform/queue/worker-locks';
import { deliveryJobConcurrency } from '../infrastructure/delivery-queue';
import { DeliveryAttemptService } from './delivery-attempt.service';

type DeliveryJobData = JobData<'webhook-deliveries', JobName<'webhook-deliveries'>>;

/** The delivery worker's stall policy, set from the configuration when the processor is built. */
const DELIVERY_WORKER: WorkerLocks = {};

/** Runs delivery attempts (one delivery, or a batch claimed together); an infrastructure error is rethrown so BullMQ retries the job. */
@Processor(QUEUE_NAMES['webhook-deliveries'], DELIVERY_WORKER)
export class WebhookDeliveryProcessor extends WorkerHost implements OnApplicationBootstrap {
  constructor(
    private readonly attempts: DeliveryAttemptService,
    private readonly config: AppConfig,
  ) {
    super();
    // A job of a dispatcher that died runs again within 2 × QUEUE_LOCK_MS; its claimed attempts
    // are sent again once their claim lease runs out. Taken back once at most: the sweeper
    // re-enqueues from PostgreSQL whatever a failed job leaves due.
    Object.assign(DELIVERY_WORKER, workerLocks(config, 1));
  }

  /** WEBHOOK_DELIVERY_CONCURRENCY bounds the requests in flight: a batch job carries up to DELIVERY_BATCH of them. */
  onApplicationBootstrap(): void {
    this.worker.concurrency = deliveryJobConcurrency(this.config.WEBHOOK_DELIVERY_CONCURRENCY);
  }

  async process(
    job: Job<DeliveryJobData, unknown, JobName<'webhook-deliveries'>>,
  ): Promise<{ attempted: number }> {
    switch (job.name) {
      case 'deliver':
        return {
          attempted: Number(
            await this.attempts.attempt((job.data as JobData<'webhook-deliveries', 'deliver'>).deliveryId),
          ),
        };
      case 'deliver-batch':
        return {
          attempted: await this.attempts.attemptBatch(
            (job.data as JobData<'webhook-deliveries', 'deliver-batch'>).deliveryIds,
          ),
        };
      default:
        throw new Error(`Unknown webhook delivery job ${String(job.name)}`);
    }
  }
}
