import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { Queue } from 'bullmq';
import { appWorkers } from './app-workers';

/**
 * Gives every BullMQ queue and worker of the app an 'error' listener. Without one, a connection
 * error of the queue backend (a PostgreSQL restart, a Redis failover) reaches EventEmitter's
 * unhandled-error path and is printed as a stack dump; with it, one warning line is logged and
 * the backend reconnects as it does anyway.
 */
@Injectable()
export class QueueErrorListeners implements OnApplicationBootstrap {
  private readonly logger = new Logger('Queue');

  constructor(private readonly discovery: DiscoveryService) {}

  onApplicationBootstrap(): void {
    for (const wrapper of this.discovery.getProviders()) {
      const instance: unknown = wrapper.instance;
      if (instance instanceof Queue) this.listen(instance, `queue ${instance.name}`);
    }
    for (const worker of appWorkers(this.discovery)) this.listen(worker, `worker ${worker.name}`);
  }

  private listen(emitter: Pick<NodeJS.EventEmitter, 'on' | 'listenerCount'>, label: string): void {
    if (emitter.listenerCount('error') > 0) return;
    emitter.on('error', (error: Error) => this.logger.warn(`${label}: ${error.message}`));
  }
}
