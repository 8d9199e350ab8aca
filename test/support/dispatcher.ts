import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { Job, Queue } from 'bullmq';
import { DispatcherModule } from '../../apps/webhook-dispatcher/dispatcher.module';
import { AppConfig, loadConfig } from '#platform/config/app-config';
import { TestApp } from './test-app';

/** Settings for webhook tests: the outbox polled every 100 ms, the delivery sweeper every 500 ms. */
export const FAST_WEBHOOKS: Partial<AppConfig> = {
  WEBHOOK_OUTBOX_POLL_MS: 100,
  WEBHOOK_SWEEP_INTERVAL_MS: 500,
};

/**
 * Boots the dispatcher app's Nest context in-process (every worker: webhook deliveries, bulk
 * imports, channel-listing sync, shipment notifications, maintenance) on a test app's database
 * and queues, with the app's settings and `overrides`. Close it before the app.
 */
export async function startDispatcher(
  app: Pick<TestApp, 'config'>,
  overrides: Partial<AppConfig> = {},
): Promise<INestApplicationContext> {
  const config = loadConfig({}, { ...app.config, ...overrides });
  return NestFactory.createApplicationContext(DispatcherModule.forRoot(config), { logger: false });
}

/** True once a queue holds no job (or none that `which` picks) left to run: waiting, active, delayed or prioritized. */
export async function drained(queue: Queue, which: (job: Job) => boolean = () => true): Promise<boolean> {
  const jobs = await queue.getJobs(['waiting', 'active', 'delayed', 'prioritized']);
  return !jobs.some(which);
}
