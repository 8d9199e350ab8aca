import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { QUEUE_NAMES } from '../../../platform/queue/queues';

export interface DueDelivery {
  id: string;
  /** The attempt number the job will make (attempt_count + 1), part of the job id. */
  attempt: number;
  delayMs?: number;
}

const JOB_OPTIONS = { removeOnComplete: true, removeOnFail: 1000, attempts: 5, backoff: { type: 'exponential', delay: 1000 } };

/**
 * Puts delivery attempts on the queue: ids only, never a secret. The job id names the
 * attempt, so the sweeper and the dispatcher enqueueing the same attempt make one job.
 * A failure to enqueue is not fatal: PostgreSQL holds the due time and the sweeper retries.
 */
@Injectable()
export class DeliveryQueue {
  private readonly logger = new Logger(DeliveryQueue.name);

  constructor(@InjectQueue(QUEUE_NAMES['webhook-deliveries']) private readonly queue: Queue) {}

  async enqueue(deliveries: readonly DueDelivery[]): Promise<void> {
    if (deliveries.length === 0) return;
    try {
      await this.queue.addBulk(
        deliveries.map((d) => ({
          name: 'deliver',
          data: { deliveryId: d.id },
          opts: { ...JOB_OPTIONS, jobId: `${d.id}-${d.attempt}`, delay: d.delayMs && d.delayMs > 0 ? d.delayMs : undefined },
        })),
      );
    } catch (error) {
      this.logger.warn(`could not enqueue ${deliveries.length} deliveries (the sweeper will): ${String(error)}`);
    }
  }
}
