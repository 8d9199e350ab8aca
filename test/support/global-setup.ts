import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ensureDatabase, migrate, startEmbeddedPostgres } from '#platform/persistence/database';
import type { Config } from '@jest/types';
import { startEventCoverage } from './event-coverage';
import { e2eProjectSelected, POSTGRES_QUEUE_PREFIX, seedTemplate } from './template-seed';
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
 * PostgreSQL; migrates one template database that every e2e file copies and, when e2e files run,
 * seeds it with the QA dataset once (test/support/template-seed.ts); starts recording the run's
 * event coverage, checked at the end of a whole e2e run (test/support/event-coverage.ts).
 */
export default async function globalSetup(config: Config.GlobalConfig): Promise<void> {
  // The test processes record the events product work commits; the teardown checks a whole e2e run.
  startEventCoverage(config);
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
  if (e2eProjectSelected()) {
    state.seed = await seedTemplate(withDatabase(adminUrl, templateDb), redisUrl);
    if (state.seed && !redisUrl) state.queuePrefix = POSTGRES_QUEUE_PREFIX;
  }
  state.openApiDir = mkdtempSync(path.join(os.tmpdir(), 'erp-test-openapi-'));
  mkdirSync(path.dirname(stateFile(process.pid)), { recursive: true });
  writeFileSync(stateFile(process.pid), JSON.stringify({ ...state, adminUrl, templateDb, redisUrl }));
}
