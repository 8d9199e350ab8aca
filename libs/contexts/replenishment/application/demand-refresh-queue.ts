import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { AppConfig } from '#platform/config/app-config';
import { QUEUE_NAMES } from '#platform/queue/queues';

/** The job that refreshes every marked product (the dispatcher runs it). */
export const REFRESH_JOB = 'refresh-demand-averages' as const;

/**
 * Queues the refresh of the marked products' demand averages, DEMAND_REFRESH_DELAY_MS from now,
 * unless one is already queued and not yet due: the movements of that time share one refresh.
 * BullMQ keeps one such job per deployment (its deduplication id, for the delay); this process
 * also skips the queue while the job it queued is not yet due, so a burst of shipments costs one
 * round trip to the queue, not one each.
 */
@Injectable()
export class DemandRefreshQueue {
  private readonly logger = new Logger(DemandRefreshQueue.name);
  /** When the refresh this process last queued is due (ms since the epoch). */
  private queuedUntil = 0;

  constructor(
    @InjectQueue(QUEUE_NAMES.replenishment) private readonly queue: Queue,
    private readonly config: AppConfig,
  ) {}

  /**
   * Queues the refresh without waiting for the queue's answer (called after a commit). A refresh
   * that could not be queued is logged: the marks stay, and the dispatcher's sweep refreshes them.
   */
  wake(): void {
    const now = Date.now();
    if (now < this.queuedUntil) return;
    const delay = this.config.DEMAND_REFRESH_DELAY_MS;
    this.queuedUntil = now + delay;
    this.queue
      .add(
        REFRESH_JOB,
        {},
        {
          delay,
          deduplication: { id: REFRESH_JOB, ttl: Math.max(1, delay) },
          removeOnComplete: true,
          removeOnFail: 100,
        },
      )
      .catch((error: unknown) => {
        this.queuedUntil = 0;
        this.logger.warn(`demand average refresh not queued (the sweep refreshes it): ${String(error)}`);
      });
  }
}
