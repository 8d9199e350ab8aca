import { WorkerHost } from '@nestjs/bullmq';
import { DiscoveryService } from '@nestjs/core';
import type { Worker } from 'bullmq';

/** The BullMQ workers of the app's processors (a processor whose worker was never started has none). */
export function appWorkers(discovery: DiscoveryService): Worker[] {
  const workers: Worker[] = [];
  for (const wrapper of discovery.getProviders()) {
    const instance: unknown = wrapper.instance;
    if (!(instance instanceof WorkerHost)) continue;
    try {
      workers.push(instance.worker);
    } catch {
      // WorkerHost.worker throws until @nestjs/bullmq has created the worker.
    }
  }
  return workers;
}
