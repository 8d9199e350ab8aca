import { Client } from 'pg';
import { MIGRATIONS } from '../../../db/migrations';

/** The command that applies pending migrations, named by every message of this module. */
export const MIGRATE_COMMAND = 'npm run db:migrate';

/** The database's schema is older than this version of the code: the process cannot serve. */
export class SchemaNotCurrentError extends Error {
  constructor(readonly pending: string[]) {
    super(describePending(pending, MIGRATIONS.length));
    this.name = 'SchemaNotCurrentError';
  }
}

/** The message for `pending` migrations out of `total`. */
export function describePending(pending: string[], total: number): string {
  if (pending.length >= total) {
    return `The database has no tables yet: run \`${MIGRATE_COMMAND}\` first.`;
  }
  const listed = pending.length > 3 ? `${pending.slice(0, 3).join(', ')}, ...` : pending.join(', ');
  return (
    `The database schema is behind this version: ${pending.length} migration(s) pending ` +
    `(${listed}): run \`${MIGRATE_COMMAND}\` first.`
  );
}

/** Names of the migrations of this version not applied yet to the database at `url`, in order. */
export async function pendingMigrations(url: string): Promise<string[]> {
  const names = MIGRATIONS.map((migration) => new migration().name ?? migration.name);
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows: table } = await client.query<{ present: boolean }>(
      `SELECT to_regclass('schema_migrations') IS NOT NULL AS present`,
    );
    if (!table[0].present) return names;
    const { rows } = await client.query<{ name: string }>('SELECT name FROM schema_migrations');
    const applied = new Set(rows.map((row) => row.name));
    return names.filter((name) => !applied.has(name));
  } finally {
    await client.end();
  }
}

/**
 * Start-up check of every process that serves from the database (API, dispatcher, operator
 * tools): refuses to start on a schema with pending migrations, naming the command to run,
 * instead of failing later on the first missing table.
 */
export async function assertSchemaCurrent(url: string): Promise<void> {
  const pending = await pendingMigrations(url);
  if (pending.length) throw new SchemaNotCurrentError(pending);
}
