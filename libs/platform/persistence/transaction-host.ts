import { AsyncLocalStorage } from 'node:async_hooks';
import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

/**
 * One transaction per mutation, taken from the async context rather than passed by hand.
 * Services call `run()`; nested calls join the open transaction, so rows and outbox events
 * written anywhere below commit together.
 */
@Injectable()
export class TransactionHost {
  private readonly storage = new AsyncLocalStorage<EntityManager>();

  constructor(readonly dataSource: DataSource) {}

  /** Runs fn in the current transaction, or opens one. */
  async run<T>(fn: (manager: EntityManager) => Promise<T>): Promise<T> {
    const open = this.storage.getStore();
    if (open) return fn(open);
    return this.dataSource.transaction((manager) => this.storage.run(manager, () => fn(manager)));
  }

  /** The manager of the open transaction, or the pool's manager for reads. */
  get manager(): EntityManager {
    return this.storage.getStore() ?? this.dataSource.manager;
  }

  /** The open transaction's manager; throws when none is open (for writes that must be atomic). */
  get transactional(): EntityManager {
    const open = this.storage.getStore();
    if (!open) throw new Error('This write must run inside TransactionHost.run()');
    return open;
  }

  get inTransaction(): boolean {
    return this.storage.getStore() !== undefined;
  }
}
