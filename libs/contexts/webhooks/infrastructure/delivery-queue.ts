import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { QUEUE_NAMES } from '#platform/queue/queues';
import { DeliveryScheduler, DueDelivery } from '../application/delivery-ports';

export type { DueDelivery };

/** Deliveries due now travel in jobs of up to this many ids (claimed together, sent in parallel). */
export const DELIVERY_BATCH = 50;

/** Batch jobs run at once for a bound on requests in flight. */
export const deliveryJobConcurrency = (requestsInFlight: number): number =>
  Math.max(1, Math.ceil(requestsInFlight / DELIVERY_BATCH));

/** The most requests in flight with that bound (whole batches). */
export const deliverySlots = (requestsInFlight: number): number =>
  deliveryJobConcurrency(requestsInFlight) * DELIVERY_BATCH;

/**
 * A job that fails (an error before its attempts could be recorded, such as a lost database
 * connection) runs again twice, a moment apart, and is then deleted rather than kept: its id
 * names the attempts it carries, and BullMQ ignores a new job whose id a kept job still holds,
 * so a kept failed job would leave those attempts unsent for good. PostgreSQL holds what is due,
 * and the sweeper queues it again.
 */
const JOB_OPTIONS = {
  removeOnComplete: true,
  removeOnFail: true,
  attempts: 3,
  backoff: { type: 'exponential', delay: 250 },
};

interface QueuedJob {
  name: 'deliver' | 'deliver-batch';
  data: { deliveryId: string } | { deliveryIds: string[] };
  opts: typeof JOB_OPTIONS & { jobId: string; delay?: number };
}

/**
 * Puts delivery attempts on the queue: ids only, never a secret. Deliveries due now go in
 * batch jobs of up to DELIVERY_BATCH ids, in the order given; a delayed attempt (a retry) or a
 * lone delivery is its own job. The job id names the attempts it carries, so the sweeper and a
 * dispatcher enqueueing the same attempts make one job; a second job for an attempt already
 * claimed or made finds nothing to claim. A failure to enqueue, or a job that fails, is not
 * fatal: PostgreSQL holds the due time and the sweeper retries.
 */
@Injectable()
export class DeliveryQueue extends DeliveryScheduler {
  private readonly logger = new Logger(DeliveryQueue.name);

  constructor(@InjectQueue(QUEUE_NAMES['webhook-deliveries']) private readonly queue: Queue) {
    super();
  }

  /** The jobs for a list of due attempts (pure; exported for tests). */
  static jobs(deliveries: readonly DueDelivery[], batchSize = DELIVERY_BATCH): QueuedJob[] {
    const single = (d: DueDelivery): QueuedJob => ({
      name: 'deliver',
      data: { deliveryId: d.id },
      opts: {
        ...JOB_OPTIONS,
        jobId: `${d.id}-${d.attempt}`,
        delay: d.delayMs && d.delayMs > 0 ? d.delayMs : undefined,
      },
    });
    const now = deliveries.filter((d) => !d.delayMs || d.delayMs <= 0);
    const jobs = deliveries.filter((d) => d.delayMs && d.delayMs > 0).map(single);
    for (let i = 0; i < now.length; i += batchSize) {
      const batch = now.slice(i, i + batchSize);
      if (batch.length === 1) {
        jobs.push(single(batch[0]));
        continue;
      }
      const first = batch[0];
      const last = batch[batch.length - 1];
      jobs.push({
        name: 'deliver-batch',
        data: { deliveryIds: batch.map((d) => d.id) },
        opts: {
          ...JOB_OPTIONS,
          jobId: `${first.id}-${first.attempt}-${last.id}-${last.attempt}-${batch.length}`,
        },
      });
    }
    return jobs;
  }

  async enqueue(deliveries: readonly DueDelivery[]): Promise<void> {
    if (deliveries.length === 0) return;
    try {
      await this.queue.addBulk(DeliveryQueue.jobs(deliveries));
    } catch (error) {
      this.logger.warn(
        `could not enqueue ${deliveries.length} deliveries (the sweeper will): ${String(error)}`,
      );
    }
  }
}
