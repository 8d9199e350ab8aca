import { getQueueToken } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { QUEUE_NAMES } from '../queue/queues';

/** How long a dependency has to answer before /ready reports it unreachable. */
export const READY_CHECK_TIMEOUT_MS = 300;

type Status = 'ok' | 'unreachable';

/**
 * Whether the database and the queue backend answer. Both are asked at once and each gets
 * READY_CHECK_TIMEOUT_MS, so /ready answers within that time whatever is down. A dependency
 * has at most one probe out: while one is still waiting (a connection that is reconnecting
 * holds its commands until it is back), later checks wait for that same probe instead of
 * piling up more, and the first check after it settles asks again, so readiness follows a
 * recovery as soon as the client has reconnected.
 */
@Injectable()
export class ReadinessService {
  private readonly pending = new Map<string, Promise<void>>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly moduleRef: ModuleRef,
  ) {}

  async check(): Promise<{ database: Status; queue: Status }> {
    const [database, queue] = await Promise.all([
      this.probe('database', async () => {
        await this.dataSource.query('SELECT 1');
      }),
      this.probe('queue', () => this.queueCheck()),
    ]);
    return { database, queue };
  }

  private probe(name: string, ask: () => Promise<void>): Promise<Status> {
    let probe = this.pending.get(name);
    if (probe === undefined) {
      probe = ask().finally(() => this.pending.delete(name));
      this.pending.set(name, probe);
    }
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<Status>((resolve) => {
      timer = setTimeout(() => resolve('unreachable'), READY_CHECK_TIMEOUT_MS);
      timer.unref();
    });
    return Promise.race([
      probe.then(
        (): Status => 'ok',
        (): Status => 'unreachable',
      ),
      timeout,
    ]).finally(() => clearTimeout(timer));
  }

  private async queueCheck(): Promise<void> {
    const queue = this.moduleRef.get<Queue>(getQueueToken(QUEUE_NAMES.maintenance), { strict: false });
    await queue.getJobCounts('waiting');
  }
}
