/**
 * Work queued per key (an entity and mode) and flushed in batches: items added in the same turn
 * of the event loop join the first batch, items added while a batch is flushing join the next
 * one, at most `maxBatch` at a time, one batch of a key at a time. `flush` settles each item of
 * its batch itself; the queue of a key is dropped once it drains.
 */
export class KeyedBatches<T> {
  private readonly waiting = new Map<string, T[]>();
  private readonly flushing = new Set<string>();

  constructor(
    private readonly maxBatch: number,
    private readonly flush: (batch: T[]) => Promise<void>,
  ) {}

  add(key: string, item: T): void {
    const queue = this.waiting.get(key);
    if (queue) queue.push(item);
    else this.waiting.set(key, [item]);
    if (!this.flushing.has(key)) {
      this.flushing.add(key);
      setImmediate(() => void this.drain(key));
    }
  }

  private async drain(key: string): Promise<void> {
    try {
      for (;;) {
        const queue = this.waiting.get(key);
        if (!queue || queue.length === 0) break;
        await this.flush(queue.splice(0, this.maxBatch));
      }
    } finally {
      this.waiting.delete(key);
      this.flushing.delete(key);
    }
  }
}
