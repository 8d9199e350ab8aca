import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import type { QaSeedDocument } from '#platform/seed/qa-seed.service';

const ROOT = path.resolve(__dirname, '../..');

/**
 * The queue prefix of every test app on the PostgreSQL backend (no REDIS_URL). There it only
 * names the schema of the queue tables inside the app's own database, so one name serves every
 * file's copy of the template, whose queue schema is then migrated before any file starts. With
 * Redis, whose keys every file shares, each app keeps a prefix of its own.
 */
export const POSTGRES_QUEUE_PREFIX = 'tq';

/** Whether jest was asked for the e2e project (given no --selectProjects, every project runs). */
export function e2eProjectSelected(argv: readonly string[] = process.argv): boolean {
  const at = argv.indexOf('--selectProjects');
  if (at < 0) return true;
  const names: string[] = [];
  for (const arg of argv.slice(at + 1)) {
    if (arg.startsWith('-')) break;
    names.push(arg);
  }
  return names.includes('e2e');
}

/** The queue tables that hold jobs, schedules and their traces (not the schema's metadata or migrations). */
const JOB_TABLES = [
  'job',
  'job_log',
  'job_dependency',
  'dedup',
  'dedup_next',
  'scheduler',
  'event',
  'metrics',
];

/**
 * Runs the QA seed of the build (`dist/scripts/seed.js`, as `npm run db:seed` does) once into
 * the migrated template database, so that every e2e file's copy starts seeded instead of
 * seeding its own (several seconds of CPU per file). Returns the seed document, or undefined
 * when the build is missing (then each file seeds its own database, as before).
 *
 * The template keeps no job of the seeding process (as with Redis, where they stay under that
 * process's prefix): a job queued then would be long due, or hold a deduplication key, in every
 * file's copy. What such a job would have done, the sweeps do (demand marks, queued shipment
 * notifications), as after a restart.
 */
export async function seedTemplate(
  databaseUrl: string,
  redisUrl: string | undefined,
): Promise<QaSeedDocument | undefined> {
  const script = path.join(ROOT, 'dist/scripts/seed.js');
  if (!existsSync(script)) return undefined;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    QUEUE_PREFIX: redisUrl ? `tseed${process.pid}` : POSTGRES_QUEUE_PREFIX,
    LOG_LEVEL: 'silent',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    CONNECTOR_ALLOW_PRIVATE_TARGETS: 'true',
    // As in test apps: no scheduled pull of the seeded sandbox shop.
    INTEGRATION_IMPORT_INTERVAL_MS: '0',
  };
  if (redisUrl) env.REDIS_URL = redisUrl;
  else delete env.REDIS_URL;
  const child = spawn(process.execPath, [script], { env, cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', resolve);
  });
  if (code !== 0) throw new Error(`Seeding the template database failed (exit ${code}):\n${stderr}`);
  if (!redisUrl) await clearQueuedJobs(databaseUrl, `bullmq_${POSTGRES_QUEUE_PREFIX}`);
  return JSON.parse(stdout) as QaSeedDocument;
}

async function clearQueuedJobs(databaseUrl: string, schema: string): Promise<void> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = $1 AND table_name = ANY($2)`,
      [schema, JOB_TABLES],
    );
    if (rows.length === 0) return;
    await client.query(`TRUNCATE ${rows.map((r) => `"${schema}"."${r.table_name}"`).join(', ')} CASCADE`);
  } finally {
    await client.end();
  }
}
