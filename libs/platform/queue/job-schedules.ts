import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, OnApplicationBootstrap, Type } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { AppConfig } from '../config/app-config';
import { JobName, QUEUE_NAMES, QueueName } from './queues';

/** An hour in milliseconds: the period of the hourly jobs. */
export const EVERY_HOUR = 60 * 60 * 1000;

/**
 * A provider that, when the app starts, repeats each job of `periods` (job name → milliseconds,
 * read from the configuration where the period is a setting) on the queue. A job scheduler is
 * upserted under its job's name, so every deployment and replica may do this and the queue still
 * holds one schedule per job. A period of 0 turns the job's schedule off (and removes a schedule
 * an earlier start left on the queue).
 */
export function JobSchedules<Q extends QueueName>(
  queue: Q,
  periods: (config: AppConfig) => Partial<Record<JobName<Q>, number>>,
): Type<OnApplicationBootstrap> {
  @Injectable()
  class Schedules implements OnApplicationBootstrap {
    constructor(
      @InjectQueue(QUEUE_NAMES[queue]) private readonly jobs: Queue,
      private readonly config: AppConfig,
    ) {}

    async onApplicationBootstrap(): Promise<void> {
      for (const [name, every] of Object.entries(periods(this.config)) as [string, number][]) {
        if (every > 0) await this.jobs.upsertJobScheduler(name, { every }, { name });
        else await this.jobs.removeJobScheduler(name);
      }
    }
  }
  Object.defineProperty(Schedules, 'name', { value: `JobSchedules(${queue})` });
  return Schedules;
}
