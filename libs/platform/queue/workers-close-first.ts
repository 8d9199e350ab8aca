import { BeforeApplicationShutdown, Injectable } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { appWorkers } from './app-workers';

/**
 * Closes the app's BullMQ workers while every queue is still open. A worker's close waits for
 * its jobs in progress, and a job may queue others (a delivery's retry, a sweep). @nestjs/bullmq
 * closes workers and queues in the same shutdown phase, in no set order, and with the PostgreSQL
 * backend an add to a closing queue never settles: the worker then waited for its job for ever.
 * Here the workers close one phase earlier (beforeApplicationShutdown), so what their last jobs
 * queue is queued, and the queues close after them.
 */
@Injectable()
export class WorkersCloseFirst implements BeforeApplicationShutdown {
  constructor(private readonly discovery: DiscoveryService) {}

  async beforeApplicationShutdown(): Promise<void> {
    await Promise.all(appWorkers(this.discovery).map((worker) => worker.close()));
  }
}
