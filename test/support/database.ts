import type { TestApp } from './test-app';

/*
 * Reads and writes of the test database that no route or repository can stand in for: facts about
 * the database server itself, and states the API cannot produce (an expiry in the past, a fault).
 * Each helper says why it needs SQL.
 */

/** Connections of this database idle inside an open transaction. SQL: a fact of the server (pg_stat_activity). */
export async function idleInTransaction(app: TestApp): Promise<number> {
  const { rows } = await app.db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_stat_activity
     WHERE datname = current_database() AND state = 'idle in transaction'`,
  );
  return rows[0].n;
}

/**
 * Runs `fn` while a table is renamed away, so every write to it fails. SQL: a storage fault no
 * route can cause.
 */
export async function withTableRenamedAway<T>(app: TestApp, table: string, fn: () => Promise<T>): Promise<T> {
  await app.db.query(`ALTER TABLE "${table}" RENAME TO "${table}_away"`);
  try {
    return await fn();
  } finally {
    await app.db.query(`ALTER TABLE "${table}_away" RENAME TO "${table}"`);
  }
}
