import { hostname } from 'node:os';
import type { WorkerOptions } from 'bullmq';
import { AppConfig } from '../config/app-config';

export type WorkerLocks = Pick<
  WorkerOptions,
  'lockDuration' | 'stalledInterval' | 'maxStalledCount' | 'name'
>;

/** The name a worker of this process stamps on the jobs it takes (BullMQ `processedBy`): `<host>:<pid>`. */
export const workerName = (): string => `${hostname()}:${process.pid}`;

/**
 * The stall policy of a BullMQ worker, from the configuration: the job lock lasts QUEUE_LOCK_MS
 * (renewed every half of it while the worker lives) and workers look for expired locks every
 * half of QUEUE_LOCK_MS. A job whose worker died is back on the queue at most twice QUEUE_LOCK_MS
 * later, on both queue backends: its lock runs out within QUEUE_LOCK_MS, and a check takes it back
 * at most two check intervals after that. (Both backends run at most one check per interval
 * for the whole queue, however many workers ask, so one worker's check can push another's back
 * to its next turn: checks may come up to twice the interval apart.)
 * `maxStalledCount` is how many times a job may be taken back before it fails instead. The
 * worker is named after its process, so a job tells which process runs it (or ran it last).
 *
 * Nest's BullMQ module builds each worker, after every provider is constructed, from the object
 * given to `@Processor(queue, options)`: a processor passes an empty object there and assigns
 * these to it in its constructor, where the configuration is injected.
 */
export function workerLocks(config: Pick<AppConfig, 'QUEUE_LOCK_MS'>, maxStalledCount: number): WorkerLocks {
  return {
    lockDuration: config.QUEUE_LOCK_MS,
    stalledInterval: Math.ceil(config.QUEUE_LOCK_MS / 2),
    maxStalledCount,
    name: workerName(),
  };
}
