import type { PoolClient } from 'pg';
import { waitFor } from './eventually';
import type { TestApp } from './test-app';

/**
 * States only the database can give a test: locks held outside the app, faults injected into a
 * write, and what the database itself records of a write (which transaction wrote a row). No API
 * produces or shows these, so each helper here is SQL, named for what it does to the app.
 */

/** Row locks a test holds in its own open transaction until `release()`. */
export interface HeldLocks {
  /** The backend holding the locks. */
  pid: number;
  /** Waits until `count` other backends wait on these locks (pg_blocking_pids). */
  waitForWaiters(count: number): Promise<void>;
  /**
   * Waits until `count` other backends queue for these locks: blocked by the holder, or queued
   * behind a backend that is (PostgreSQL reports the second waiter of a row as blocked by the first).
   */
  waitForQueue(count: number): Promise<void>;
  /** Commits the holding transaction, letting the waiters go. */
  release(): Promise<void>;
}

// A lock held by another session is the one way to keep a writer of the app waiting mid-transaction.
async function holdLocks(app: TestApp, lockingSelect: string, params: unknown[]): Promise<HeldLocks> {
  const client: PoolClient = await app.db.connect();
  let released = false;
  try {
    await client.query('BEGIN');
    await client.query(lockingSelect, params);
    const pid = Number((await client.query('SELECT pg_backend_pid() AS pid')).rows[0].pid);
    return {
      pid,
      async waitForWaiters(count) {
        await waitFor(
          async () => {
            const { rows } = await app.db.query(
              `SELECT count(*)::int AS n FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))`,
              [pid],
            );
            return rows[0].n >= count;
          },
          { label: `${count} backend(s) waiting on the locks of backend ${pid}` },
        );
      },
      async waitForQueue(count) {
        await waitFor(
          async () => {
            const { rows } = await app.db.query(
              `WITH RECURSIVE queued(pid) AS (
                 SELECT pid FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))
                 UNION
                 SELECT a.pid FROM pg_stat_activity a JOIN queued q ON q.pid = ANY(pg_blocking_pids(a.pid))
               ) SELECT count(*)::int AS n FROM queued`,
              [pid],
            );
            return rows[0].n >= count;
          },
          { label: `${count} backend(s) queued for the locks of backend ${pid}` },
        );
      },
      async release() {
        if (released) return;
        released = true;
        try {
          await client.query('COMMIT');
        } finally {
          client.release();
        }
      },
    };
  } catch (error) {
    client.release();
    throw error;
  }
}

/** Locks every inventory balance row of a product (FOR UPDATE) until released. */
export function lockInventoryBalancesOf(app: TestApp, productId: string): Promise<HeldLocks> {
  return holdLocks(app, `SELECT id FROM inventory_balances WHERE product_id = $1 FOR UPDATE`, [productId]);
}

/** Locks a customer account's row (FOR UPDATE) until released: its credit balance's lock. */
export function lockAccount(app: TestApp, accountId: string): Promise<HeldLocks> {
  return holdLocks(app, `SELECT id FROM accounts WHERE id = $1 FOR UPDATE`, [accountId]);
}

/**
 * How many database transactions wrote the inventory ledger rows of these sources (the rows'
 * xmin): the group commit of stock movements is a database property no API shows.
 */
export async function transactionsWritingLedgerRowsOf(app: TestApp, sourceIds: readonly string[]) {
  const { rows } = await app.db.query(
    `SELECT count(DISTINCT xmin::text)::int AS n FROM inventory_transactions WHERE source_id = ANY($1::uuid[])`,
    [sourceIds],
  );
  return rows[0].n as number;
}

/**
 * Installs a BEFORE INSERT (or UPDATE) row trigger `name` on `table` running `body` (PL/pgSQL,
 * ending in RETURN NEW); the returned function takes it out, then runs the `extra` drop statements.
 */
async function installTrigger(
  app: TestApp,
  {
    table,
    name,
    body,
    extra = [],
    on = 'INSERT',
  }: { table: string; name: string; body: string; extra?: string[]; on?: 'INSERT' | 'UPDATE' },
): Promise<() => Promise<void>> {
  const remove = async () => {
    await app.db.query(`DROP TRIGGER IF EXISTS ${name} ON ${table}`);
    await app.db.query(`DROP FUNCTION IF EXISTS ${name}()`);
    for (const statement of extra) await app.db.query(statement);
  };
  try {
    await app.db.query(
      `CREATE OR REPLACE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ${body} END $$`,
    );
    await app.db.query(
      `CREATE TRIGGER ${name} BEFORE ${on} ON ${table} FOR EACH ROW EXECUTE FUNCTION ${name}()`,
    );
  } catch (error) {
    await remove();
    throw error;
  }
  return remove;
}

/** A fault installed in the database; `remove()` takes it out again. */
export interface InsertFault {
  /** How many inserts of the watched rows were attempted so far (rolled-back attempts included). */
  attempts(): Promise<number>;
  remove(): Promise<void>;
}

/**
 * Makes every insert of an inventory ledger row with `reason` fail (so a batch holding it fails
 * as a whole), and counts the attempted inserts of `productId`'s rows with a sequence, which a
 * rollback does not undo. A database error on one row is a fault no request can cause.
 */
export async function failInventoryRowsWithReason(
  app: TestApp,
  { productId, reason }: { productId: string; reason: string },
): Promise<InsertFault> {
  await app.db.query(`CREATE SEQUENCE IF NOT EXISTS test_row_attempts`);
  const remove = await installTrigger(app, {
    table: 'inventory_transactions',
    name: 'test_refuse_reason',
    body: `IF NEW.product_id = '${productId}' THEN PERFORM nextval('test_row_attempts'); END IF;
           IF NEW.reason = '${reason}' THEN RAISE EXCEPTION 'refused by the test'; END IF;
           RETURN NEW;`,
    extra: [`DROP SEQUENCE IF EXISTS test_row_attempts`],
  });
  return {
    // Reading the sequence advances it too: the reads so far are taken off.
    attempts: (() => {
      let reads = 0;
      return async () => {
        const n = Number((await app.db.query(`SELECT nextval('test_row_attempts') AS n`)).rows[0].n);
        reads += 1;
        return n - reads;
      };
    })(),
    remove,
  };
}

/**
 * Makes every insert of an outbox event of `type` fail: the last write of a transaction, sent
 * with its COMMIT (TransactionHost.run). A database error there is a fault no request can cause.
 */
export async function failOutboxEventsOfType(
  app: TestApp,
  type: string,
): Promise<{ remove(): Promise<void> }> {
  const remove = await installTrigger(app, {
    table: 'outbox_events',
    name: 'test_refuse_event',
    body: `IF NEW.type = '${type}' THEN RAISE EXCEPTION 'refused by the test'; END IF; RETURN NEW;`,
  });
  return { remove };
}

/**
 * Makes every commit of an import's checkpoint fail (the update that moves `next_row` on), so
 * each attempt of every import fails after its rows were written and rolled back. A database
 * error there is a fault no request can cause.
 */
export async function failImportCheckpoints(app: TestApp): Promise<{ remove(): Promise<void> }> {
  const remove = await installTrigger(app, {
    table: 'imports',
    name: 'test_refuse_checkpoint',
    on: 'UPDATE',
    body: `IF NEW.next_row > OLD.next_row THEN RAISE EXCEPTION 'refused by the test'; END IF; RETURN NEW;`,
  });
  return { remove };
}
