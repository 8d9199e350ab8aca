import { BullModule } from '@nestjs/bullmq';
import { DynamicModule, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { createPostgresBackend, createRedisBackend, setDefaultBackendFactory } from 'bullmq';
import { AppConfig } from '../config/app-config';
import { eventCoverage } from '../events/event-coverage';
import { JobOriginWorker } from './job-origin-worker';
import { QueueAvailability } from './queue-availability';
import { QueueErrorListeners } from './queue-errors';
import { WorkersCloseFirst } from './workers-close-first';

/** The longest pause between two reconnection attempts of a queue's Redis connection. */
export const QUEUE_RECONNECT_MAX_MS = 1000;

/** BullMQ connection options: Redis when REDIS_URL is set, else the PostgreSQL backend in the same database. */
export function queueConnection(config: AppConfig): { connection: never; prefix?: string } {
  if (config.REDIS_URL) {
    setDefaultBackendFactory(createRedisBackend);
    const url = new URL(config.REDIS_URL);
    return {
      connection: {
        host: url.hostname,
        port: Number(url.port || 6379),
        username: url.username || undefined,
        password: url.password || undefined,
        db: url.pathname.length > 1 ? Number(url.pathname.slice(1)) : undefined,
        maxRetriesPerRequest: null,
        // BullMQ's default waits up to 20 s between reconnection attempts; at most 1 s here, so
        // queues (and /ready) follow Redis within a second or two of its return.
        retryStrategy: (times: number) => Math.min(times * 100, QUEUE_RECONNECT_MAX_MS),
      } as never,
      prefix: config.QUEUE_PREFIX,
    };
  }
  if (!config.DATABASE_URL) throw new Error('DATABASE_URL must be resolved before queues are configured');
  setDefaultBackendFactory(createPostgresBackend as never);
  return {
    connection: {
      connectionString: config.DATABASE_URL,
      schema: `bullmq_${config.QUEUE_PREFIX}`,
      migrate: true,
      max: config.QUEUE_DB_POOL_MAX,
    } as never,
  };
}

/** Registers the BullMQ root connection once for an app. */
@Module({})
export class QueueModule {
  static forRoot(config: AppConfig): DynamicModule {
    // A test run recording event coverage runs the processors' jobs as product jobs.
    if (eventCoverage.on) BullModule.workerClass = JobOriginWorker;
    return {
      module: QueueModule,
      global: true,
      imports: [BullModule.forRoot(queueConnection(config)), DiscoveryModule],
      providers: [QueueErrorListeners, WorkersCloseFirst, QueueAvailability],
      exports: [BullModule, QueueAvailability],
    };
  }
}
