import { workerLocks } from './worker-locks';

describe('worker stall policy', () => {
  it.each([1000, 5000, 7001])(
    'takes a dead worker’s job back within twice QUEUE_LOCK_MS=%i: the lock, then two check intervals',
    (lockMs) => {
      const locks = workerLocks({ QUEUE_LOCK_MS: lockMs }, 3);
      // The lock runs out at most lockDuration after the worker died; checks are shared by every
      // worker of the queue, one per interval, so two of them may be up to two intervals apart.
      expect(locks.lockDuration! + 2 * locks.stalledInterval!).toBeLessThanOrEqual(2 * lockMs + 1);
      expect(locks.maxStalledCount).toBe(3);
    },
  );
});
