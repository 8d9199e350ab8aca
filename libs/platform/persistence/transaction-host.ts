import { AsyncLocalStorage } from 'node:async_hooks';
import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

/** A statement on the open transaction's own connection (its driver's query()). */
export type ConnectionQuery = (text: string, values: unknown[]) => Promise<unknown>;

/** A write statement (INSERT, UPDATE or DELETE whose result nobody reads) and its parameters. */
export interface WriteStatement {
  sql: string;
  params: unknown[];
}

/**
 * One statement doing the work of `writes`, in order: each becomes a data-modifying WITH query
 * (all see the database as it was before the statement; a row one inserts satisfies another's
 * foreign key, checked at the end of the statement), with its `$n` parameters renumbered. The
 * nulls of `writes` (a builder's "nothing to write") are left out; null when nothing is left.
 */
export function combinedWrite(writes: readonly (WriteStatement | null)[]): WriteStatement | null {
  const present = writes.filter((w): w is WriteStatement => w !== null);
  if (present.length <= 1) return present[0] ?? null;
  const params: unknown[] = [];
  const parts = present.map((w, i) => {
    if (/\$[A-Za-z_]*\$/.test(w.sql))
      throw new Error('combinedWrite: dollar-quoted text cannot be renumbered');
    const offset = params.length;
    params.push(...w.params);
    return `w${i} AS (${w.sql.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + offset}`)})`;
  });
  return { sql: `WITH ${parts.join(',\n')} SELECT 1`, params };
}

interface DriverConnection {
  query(text: string, values: unknown[]): Promise<unknown>;
}

/** The open transaction: its manager and the rows to be written just before it commits. */
interface OpenTransaction {
  manager: EntityManager;
  /** How many run() calls joined it are running (0: only the one that opened it). */
  nested: number;
  gathered?: Map<
    object,
    { rows: unknown[]; flush: (rows: unknown[], query: ConnectionQuery) => Promise<void> }
  >;
  /** Called once the transaction committed (afterCommit), in order. */
  committed?: (() => void)[];
}

/**
 * One transaction per mutation, taken from the async context rather than passed by hand.
 * Services call `run()`; nested calls join the open transaction, so rows and outbox events
 * written anywhere below commit together.
 */
@Injectable()
export class TransactionHost {
  private readonly storage = new AsyncLocalStorage<OpenTransaction>();

  constructor(readonly dataSource: DataSource) {}

  /**
   * Runs fn in the current transaction, or opens one. When fn is done, the rows gathered over the
   * transaction (gather()) are written, then it commits; when one of those writes
   * fails, the transaction rolls back and run() throws its error.
   */
  async run<T>(fn: (manager: EntityManager) => Promise<T>): Promise<T> {
    const open = this.storage.getStore();
    if (open) {
      open.nested += 1;
      try {
        return await fn(open.manager);
      } finally {
        open.nested -= 1;
      }
    }
    let committed: (() => void)[] | undefined;
    const result = await this.transaction((manager) => {
      const transaction: OpenTransaction = { manager, nested: 0 };
      return this.storage.run(transaction, async () => {
        const result = await fn(manager);
        await this.writeGathered(transaction);
        committed = transaction.committed;
        return result;
      });
    });
    for (const callback of committed ?? []) callback();
    return result;
  }

  /**
   * Calls `callback` once the open transaction has committed (not when it rolls back, nor when a
   * savepoint() around this call rolls back): for signals about what it wrote, such as waking a
   * worker. It runs in the committing caller's async context and must not throw.
   */
  afterCommit(callback: () => void): void {
    (this.transactionOpen().committed ??= []).push(callback);
  }

  /**
   * The transaction of run(): TypeORM's DataSource.transaction() without a round trip of its own
   * for START TRANSACTION. START is handed to the connection before `work` runs, so the
   * transaction's first statements follow it in the same write (and run after it). The runner
   * is marked as TypeORM marks a transaction it started, for its commitTransaction() and
   * rollbackTransaction().
   */
  private async transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    const runner = this.dataSource.createQueryRunner();
    try {
      const connection = (await runner.connect()) as DriverConnection;
      const started = connection.query('START TRANSACTION', []);
      started.catch(() => undefined);
      Object.assign(runner, { isTransactionActive: true, transactionDepth: 1 });
      try {
        const result = await work(runner.manager);
        // START, answered first, cannot fail unless the connection does (and then so does
        // everything behind it).
        await runner.commitTransaction();
        await started;
        return result;
      } catch (error) {
        await runner.rollbackTransaction().catch(() => undefined);
        throw error;
      }
    } finally {
      await runner.release();
    }
  }

  /** The manager of the open transaction, or the pool's manager for reads. */
  get manager(): EntityManager {
    return this.storage.getStore()?.manager ?? this.dataSource.manager;
  }

  /** The open transaction's manager; throws when none is open (for writes that must be atomic). */
  get transactional(): EntityManager {
    const open = this.storage.getStore();
    if (!open) throw new Error('This write must run inside TransactionHost.run()');
    return open.manager;
  }

  get inTransaction(): boolean {
    return this.storage.getStore() !== undefined;
  }

  /**
   * Rows gathered over the open transaction and written by one statement just before COMMIT
   * (once the work of run() is done; a failure rolls everything back): the array under `key`
   * for this transaction, to push rows into; `flush` writes them then. A savepoint() rolled back
   * drops the rows gathered inside it. Throws when no transaction is open.
   */
  gather<T>(key: object, flush: (rows: T[], query: ConnectionQuery) => Promise<void>): T[] {
    const open = this.storage.getStore();
    if (!open) throw new Error('This write must run inside TransactionHost.run()');
    open.gathered ??= new Map();
    const existing = open.gathered.get(key);
    if (existing) return existing.rows as T[];
    const rows: T[] = [];
    open.gathered.set(key, { rows, flush: (r, query) => flush(r as T[], query) });
    return rows;
  }

  /**
   * Runs `fn` inside a savepoint of the open transaction: released when it succeeds; when it
   * throws, the transaction and its gathered rows go back to the savepoint and the error is
   * rethrown.
   */
  async savepoint<T>(name: string, fn: () => Promise<T>): Promise<T> {
    const open = this.storage.getStore();
    if (!open) throw new Error('A savepoint needs an open TransactionHost.run()');
    const lengths = new Map([...(open.gathered ?? new Map()).entries()].map(([k, g]) => [k, g.rows.length]));
    const committedKept = open.committed?.length ?? 0;
    await open.manager.query(`SAVEPOINT ${name}`);
    let result: T;
    try {
      result = await fn();
    } catch (error) {
      await open.manager.query(`ROLLBACK TO SAVEPOINT ${name}`);
      for (const [key, gathered] of open.gathered ?? new Map()) {
        const kept = lengths.get(key);
        if (kept === undefined) open.gathered!.delete(key);
        else gathered.rows.length = kept;
      }
      if (open.committed) open.committed.length = committedKept;
      throw error;
    }
    await open.manager.query(`RELEASE SAVEPOINT ${name}`);
    return result;
  }

  /** Writes every gathered set, in gathering order; the first failure is thrown. */
  private async writeGathered(transaction: OpenTransaction): Promise<void> {
    const gathered = [...(transaction.gathered?.values() ?? [])];
    transaction.gathered?.clear();
    if (gathered.length === 0) return;
    const query = this.connectionQuery(transaction);
    for (const { rows, flush } of gathered) await flush(rows, query);
  }

  private transactionOpen(): OpenTransaction {
    const open = this.storage.getStore();
    if (!open) throw new Error('This must run inside TransactionHost.run()');
    return open;
  }

  /** The transaction's driver connection: a statement given to it is sent synchronously. */
  private connectionQuery(transaction: OpenTransaction): ConnectionQuery {
    const connection = (
      transaction.manager.queryRunner as unknown as { databaseConnection?: DriverConnection }
    ).databaseConnection;
    if (!connection) throw new Error('The transaction has no connection of its own');
    return (text, values) => connection.query(text, values);
  }
}
