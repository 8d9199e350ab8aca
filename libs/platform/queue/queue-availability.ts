import { Injectable, OnApplicationBootstrap, SetMetadata } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { Queue } from 'bullmq';
import type { EventEmitter } from 'node:events';
import { AppConfig } from '../config/app-config';

export const ENQUEUES_KEY = 'erp:enqueues-jobs';

/**
 * Marks an operation that queues a job once its transaction committed (an import's run, a
 * shipment notification, a listing sync, a webhook delivery). While the queue store is known to
 * be unreachable, the API guard answers it 503 `service_unavailable` with `Retry-After` before
 * anything is written, instead of committing and then waiting for the store.
 */
export const EnqueuesJobs = () => SetMetadata(ENQUEUES_KEY, true);

/**
 * Whether the queue store (Redis, when REDIS_URL is set) is connected, known without asking it:
 * every queue's connection reports `close` when it is lost and `ready` once it is back. Without
 * Redis the queues live in the database, whose outage every request meets anyway, so the
 * queues count as reachable.
 */
@Injectable()
export class QueueAvailability implements OnApplicationBootstrap {
  /** Names of the queues whose connection is down. */
  private readonly down = new Set<string>();

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly config: AppConfig,
  ) {}

  get reachable(): boolean {
    return this.down.size === 0;
  }

  onApplicationBootstrap(): void {
    if (!this.config.REDIS_URL) return;
    for (const wrapper of this.discovery.getProviders()) {
      const queue: unknown = wrapper.instance;
      if (!(queue instanceof Queue)) continue;
      const backend = queue.getBackend() as unknown as Pick<EventEmitter, 'on'>;
      backend.on('close', () => this.down.add(queue.name));
      backend.on('ready', () => this.down.delete(queue.name));
    }
  }
}
