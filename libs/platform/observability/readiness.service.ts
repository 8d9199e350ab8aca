import { getQueueToken } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { QUEUE_NAMES } from '../queue/queues';

const withTimeout = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timeout')), ms).unref()),
  ]);

/** Whether the database and the queue backend answer. */
@Injectable()
export class ReadinessService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly moduleRef: ModuleRef,
  ) {}

  async check(): Promise<{ database: string; queue: string }> {
    const database = await withTimeout(this.dataSource.query('SELECT 1'), 2000)
      .then(() => 'ok')
      .catch(() => 'unreachable');
    const queue = await withTimeout(this.queueCheck(), 2000)
      .then(() => 'ok')
      .catch(() => 'unreachable');
    return { database, queue };
  }

  private async queueCheck(): Promise<void> {
    const queue = this.moduleRef.get<Queue>(getQueueToken(QUEUE_NAMES.maintenance), { strict: false });
    await queue.getJobCounts('waiting');
  }
}
