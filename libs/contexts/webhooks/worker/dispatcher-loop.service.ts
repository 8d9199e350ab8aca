import { Injectable, Logger, OnApplicationBootstrap, BeforeApplicationShutdown } from '@nestjs/common';
import type { Client } from 'pg';
import { AppConfig } from '#platform/config/app-config';
import { DeliveryAttemptRepository } from '../infrastructure/delivery-attempt.repository';
import { listenToOutbox } from '../infrastructure/outbox-listener';
import { RerunningTask } from '#platform/queue/rerunning-task';
import { FANOUT_BATCH, OutboxFanoutService } from './outbox-fanout.service';
import { DeliveryScheduler } from '../application/delivery-ports';

export const SWEEP_BATCH = 1_000;

/**
 * The dispatcher's two loops. Fan-out: woken by the outbox trigger's NOTIFY (and a fallback
 * poll), it drains committed events into deliveries. Sweep: PostgreSQL is the source of truth,
 * so every due, unclaimed delivery is put on the queue again; a lost job, a crashed dispatcher
 * or a Redis restart delays an attempt but never loses it.
 */
@Injectable()
export class DispatcherLoop implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(DispatcherLoop.name);
  private listener?: Client;
  private timers: NodeJS.Timeout[] = [];
  private readonly fanoutRounds = new RerunningTask(
    () => this.drain(),
    (error) => this.logger.warn(`outbox fan-out failed (will retry): ${String(error)}`),
  );
  private stopped = false;

  constructor(
    private readonly config: AppConfig,
    private readonly deliveries: DeliveryAttemptRepository,
    private readonly fanout: OutboxFanoutService,
    private readonly queue: DeliveryScheduler,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.listen();
    this.timers.push(setInterval(() => this.kick(), this.config.WEBHOOK_OUTBOX_POLL_MS));
    this.timers.push(
      setInterval(
        () => void this.sweep().catch((e: unknown) => this.logger.warn(`sweep failed: ${String(e)}`)),
        this.config.WEBHOOK_SWEEP_INTERVAL_MS,
      ),
    );
    this.kick();
    void this.sweep().catch(() => undefined);
  }

  /** Stops before the queues close (this loop queues jobs, and an add to a closing queue may never settle). */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers) clearInterval(timer);
    await this.listener?.end().catch(() => undefined);
    await this.fanoutRounds.stop();
  }

  private async listen(): Promise<void> {
    try {
      this.listener = await listenToOutbox(
        this.config.DATABASE_URL,
        () => this.kick(),
        (error) => this.logger.warn(`outbox listener: ${error.message}`),
      );
    } catch (error) {
      this.logger.warn(`outbox listener unavailable, polling only: ${String(error)}`);
    }
  }

  /** Starts a drain, or asks the running one to go round once more. */
  kick(): void {
    this.fanoutRounds.start();
  }

  private async drain(): Promise<void> {
    while (!this.stopped && (await this.fanout.drainBatch(FANOUT_BATCH)) === FANOUT_BATCH);
  }

  /**
   * Re-enqueues deliveries that have been due and unclaimed for a whole sweep interval: their job
   * was lost, or is still waiting behind a backlog (a second job for an attempt is harmless, the
   * claim lets one through). The grace keeps the sweeper from doubling the jobs just enqueued.
   */
  async sweep(): Promise<number> {
    if (this.stopped) return 0;
    const due = await this.deliveries.dueUnclaimed(SWEEP_BATCH, this.config.WEBHOOK_SWEEP_INTERVAL_MS);
    await this.queue.enqueue(due.map((d) => ({ id: d.id, attempt: d.attempt_count + 1 })));
    return due.length;
  }
}
