import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ensureDatabase, migrate, startEmbeddedPostgres } from '#platform/persistence/database';
import type { Config } from '@jest/types';
import { Client } from 'pg';
import { isWholeE2eRun, startRecordingEmittedTypes } from './event-coverage';
import { stateFile, TestRunState, withDatabase } from './test-env';

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });

/**
 * Runs once per `npm test`: uses DATABASE_URL's server when set, else starts an embedded
 * PostgreSQL; migrates one template database that every e2e file copies; on a run of the whole
 * e2e project, starts recording the emitted event types (test/support/event-coverage.ts).
 */
export default async function globalSetup(config: Config.GlobalConfig): Promise<void> {
  // A whole e2e run records the event types its processes emit; the teardown checks the catalog.
  if (isWholeE2eRun(config)) startRecordingEmittedTypes();
  const templateDb = `erp_tpl_${process.pid}`;
  let adminUrl: string;
  const state: Partial<TestRunState> = {};
  if (process.env.DATABASE_URL) {
    adminUrl = withDatabase(process.env.DATABASE_URL, 'postgres');
  } else {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'erp-test-pg-'));
    // The server runs as an unprivileged user when the tests run as root.
    chmodSync(dir, 0o755);
    const port = await freePort();
    const server = await startEmbeddedPostgres(path.join(dir, 'data'), port, 'postgres');
    adminUrl = server.url;
    state.embeddedDir = dir;
    state.embeddedPort = port;
    (globalThis as { __embeddedPg?: { stop(): Promise<void> } }).__embeddedPg = server;
  }
  await ensureDatabase(adminUrl, templateDb);
  await migrate(withDatabase(adminUrl, templateDb));
  const redisUrl = process.env.REDIS_URL || undefined;
  state.templateSeed = await seedTemplate(withDatabase(adminUrl, templateDb), adminUrl, templateDb, redisUrl);
  mkdirSync(path.dirname(stateFile(process.pid)), { recursive: true });
  writeFileSync(stateFile(process.pid), JSON.stringify({ ...state, adminUrl, templateDb, redisUrl }));
}

/**
 * Runs the QA seed once, in the template database, with the built API app (the seed goes through
 * the contexts' services); every file's copy then starts seeded instead of seeding again. Leaves
 * no connection to the template (a database being copied must have none).
 */
async function seedTemplate(
  databaseUrl: string,
  adminUrl: string,
  templateDb: string,
  redisUrl: string | undefined,
): Promise<NonNullable<TestRunState['templateSeed']>> {
  const dist = path.resolve(__dirname, '../../dist');
  /* eslint-disable @typescript-eslint/no-require-imports -- the built app, as the migrations above */
  const { createApiApp } = require(
    `${dist}/apps/api/bootstrap.js`,
  ) as typeof import('../../apps/api/bootstrap');
  const { loadConfig } = require(
    `${dist}/libs/platform/config/app-config.js`,
  ) as typeof import('#platform/config/app-config');
  const { QaSeedService } = require(
    `${dist}/libs/platform/seed/qa-seed.service.js`,
  ) as typeof import('#platform/seed/qa-seed.service');
  /* eslint-enable @typescript-eslint/no-require-imports */
  const config = loadConfig(
    {},
    {
      DATABASE_URL: databaseUrl,
      REDIS_URL: redisUrl,
      QUEUE_PREFIX: `tpl${process.pid}`,
      LOG_LEVEL: 'silent',
      DB_POOL_MAX: 2,
      QUEUE_DB_POOL_MAX: 1,
      INTEGRATION_IMPORT_INTERVAL_MS: 0,
    },
  );
  const { app } = await createApiApp(config);
  let document: unknown;
  try {
    document = await app.get(QaSeedService).run();
  } finally {
    await app.close();
  }
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`,
      [templateDb],
    );
  } finally {
    await admin.end();
  }
  return { document, day: new Date().toISOString().slice(0, 10) };
}
