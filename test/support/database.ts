import type { Pool } from 'pg';
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

// The idempotency store: no route or repository shows its records, and only time expires them.

/** Stored idempotency records with this key, across entities and modes. SQL: the store has no reader. */
export async function idempotencyRecords(
  app: TestApp,
  key?: string,
): Promise<{ created_at: Date; expires_at: Date; status: string }[]> {
  const { rows } = await app.db.query(
    `SELECT created_at, expires_at, status FROM idempotency_keys WHERE $1::text IS NULL OR key = $1`,
    [key ?? null],
  );
  return rows;
}

/** Makes the records of these keys expired a minute ago. SQL: expiry is only ever reached by waiting a day. */
export async function expireIdempotencyKeys(app: TestApp, keys: string[]): Promise<void> {
  await app.db.query(
    `UPDATE idempotency_keys SET expires_at = now() - interval '1 minute' WHERE key = ANY($1)`,
    [keys],
  );
}

/** A completed record of `key` for the primary entity that expired a day ago. SQL: as expireIdempotencyKeys. */
export async function insertExpiredIdempotencyKey(app: TestApp, key: string): Promise<void> {
  await app.db.query(
    `INSERT INTO idempotency_keys (id, entity_id, livemode, key, method, path, body_hash, status, created_at, expires_at)
     VALUES (gen_random_uuid(), $1, true, $2, 'POST', '/v1/tags', 'x', 'completed', now() - interval '2 days', now() - interval '1 day')`,
    [app.seed.entities.primary.id, key],
  );
}

/**
 * The stored response of `key`'s record: its body as text and its sealed secrets. SQL: the store
 * has no reader, and the point is what it holds at rest.
 */
export async function storedIdempotentResponse(
  app: TestApp,
  key: string,
): Promise<{ body: string; secrets: string | null }> {
  const { rows } = await app.db.query<{ body: string; secrets: string | null }>(
    `SELECT response_body::text AS body, response_secrets AS secrets FROM idempotency_keys WHERE key = $1`,
    [key],
  );
  if (rows.length !== 1) throw new Error(`expected one idempotency record for ${key}, found ${rows.length}`);
  return rows[0];
}

/**
 * A completed record of `key` for the primary entity whose stored body is `body` as given (a
 * plaintext secret included), as records were stored before secret fields were sealed. SQL: a
 * legacy state no route writes.
 */
export async function insertLegacyIdempotentResponse(app: TestApp, key: string, body: string): Promise<void> {
  await app.db.query(
    `INSERT INTO idempotency_keys (id, entity_id, livemode, key, method, path, body_hash, status,
                                   response_status, response_headers, response_body, created_at, expires_at)
     VALUES (gen_random_uuid(), $1, true, $2, 'POST', '/v1/legacy', 'x', 'completed', 201, '{}', $3::json,
             now(), now() + interval '1 hour')`,
    [app.seed.entities.primary.id, key, body],
  );
}

/**
 * Every place in the database where any of `texts` occurs: `schema.table` of each base table
 * (every schema but the system's, from information_schema) with a row whose text form (all its
 * columns) contains one of them. SQL: the point is everything stored, whatever the table.
 */
export async function tablesContaining(app: TestApp, texts: readonly string[]): Promise<string[]> {
  const { rows: tables } = await app.db.query<{ schema: string; name: string }>(
    `SELECT table_schema AS schema, table_name AS name FROM information_schema.tables
      WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')
      ORDER BY 1, 2`,
  );
  if (tables.length === 0) throw new Error('information_schema listed no table');
  const patterns = texts.map((t) => `%${t.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  const found: string[] = [];
  for (const { schema, name } of tables) {
    const qualified = `"${schema.replace(/"/g, '""')}"."${name.replace(/"/g, '""')}"`;
    const { rows } = await app.db.query<{ hit: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM ${qualified} AS t WHERE t::text LIKE ANY ($1::text[])) AS hit`,
      [patterns],
    );
    if (rows[0].hit) found.push(`${schema}.${name}`);
  }
  return found;
}

/** Stored API key rows, all columns (one key's, or every key's). SQL: the point is what the table holds at rest. */
export async function storedApiKeyRows(app: TestApp, id?: string): Promise<Record<string, unknown>[]> {
  const { rows } = await app.db.query(`SELECT * FROM api_keys WHERE $1::uuid IS NULL OR id = $1`, [
    id ?? null,
  ]);
  return rows;
}

/** The stored rows of an import's source, in order. SQL: no route returns them. */
export async function importRows(
  app: TestApp,
  importId: string,
): Promise<{ idx: number; line: number; text: string }[]> {
  const { rows } = await app.db.query<{ idx: number; line: number; text: string }>(
    `SELECT idx, line, text FROM import_rows WHERE import_id = $1 ORDER BY idx`,
    [importId],
  );
  return rows;
}

/** Import rows whose import does not exist (an upload that failed must leave none). SQL, as above. */
export async function orphanImportRows(app: TestApp): Promise<number> {
  const { rows } = await app.db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM import_rows r WHERE NOT EXISTS (SELECT 1 FROM imports i WHERE i.id = r.import_id)`,
  );
  return rows[0].n;
}

/** Tables with tenant rows that a refused request may write for bookkeeping, not data (activity, idempotency, rate limits). */
export const BOOKKEEPING_TABLES: ReadonlySet<string> = new Set([
  'activity_log',
  'idempotency_keys',
  'rate_limit_windows',
]);

/**
 * Per table holding tenant rows (an entity_id column), but the bookkeeping ones: the number of
 * rows of one entity (both modes) and an md5 of their every column, sorted. SQL: a refused
 * request must leave every stored row as it was, including rows no route shows (outbox,
 * counters, ledger lines), and only the database sees every table at once, whatever routes exist.
 */
export async function tenantRowsFingerprint(app: TestApp, entityId: string): Promise<Record<string, string>> {
  const { rows: tables } = await app.db.query<{ table_name: string }>(
    `SELECT DISTINCT table_name FROM information_schema.columns
      WHERE table_schema = 'public' AND column_name = 'entity_id' ORDER BY table_name`,
  );
  const out: Record<string, string> = {};
  for (const { table_name: table } of tables) {
    if (BOOKKEEPING_TABLES.has(table)) continue;
    const { rows } = await app.db.query<{ n: number; hash: string }>(
      `SELECT count(*)::int AS n, md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) AS hash
         FROM "${table}" t WHERE entity_id = $1`,
      [entityId],
    );
    out[table] = `${rows[0].n} rows, md5 ${rows[0].hash}`;
  }
  return out;
}

/**
 * A customer account's credits in the primary entity's live mode (amount as 4-decimal text), oldest
 * first. SQL: no route shows a customer's credit balance; a deposit's unapplied remainder lands there.
 */
export async function customerCredits(
  app: TestApp,
  accountId: string,
): Promise<{ amount: string; reference: string }[]> {
  const { rows } = await app.db.query(
    `SELECT amount::text AS amount, reference FROM customer_credits
      WHERE entity_id = $1 AND livemode AND account_id = $2 ORDER BY created_at, id`,
    [app.seed.entities.primary.id, accountId],
  );
  return rows;
}

/** The server's prepared statements on this connection whose text contains `marker`. SQL: pg_prepared_statements. */
export async function preparedStatementsMarked(
  manager: { query(sql: string, params?: unknown[]): Promise<unknown> },
  marker: string,
): Promise<string[]> {
  const rows = (await manager.query(
    `SELECT statement FROM pg_prepared_statements WHERE statement LIKE '%' || $1 || '%' AND statement NOT LIKE '%pg_prepared_statements%'`,
    [marker],
  )) as { statement: string }[];
  return rows.map((r) => r.statement);
}

/**
 * Cuts a database off (no new connections, every open one terminated) through an admin
 * connection, or lets connections in again. SQL: an outage no route can cause.
 */
export async function setDatabaseReachable(admin: Pool, dbName: string, reachable: boolean): Promise<void> {
  await admin.query(`ALTER DATABASE "${dbName}" ALLOW_CONNECTIONS ${reachable ? 'true' : 'false'}`);
  if (!reachable) {
    await admin.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`,
      [dbName],
    );
  }
}
