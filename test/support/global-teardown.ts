import { rmSync } from 'node:fs';
import { Client } from 'pg';
import { checkEventCoverage } from './event-coverage';
import { readRunState, stateFile } from './test-env';

/**
 * Drops the run's databases and stops the embedded server; then, on a run of the whole e2e
 * project, fails the run when a catalog event type was not committed by a product route or job
 * or not asserted by a test (test/support/event-coverage.ts).
 */
export default async function globalTeardown(): Promise<void> {
  const state = readRunState();
  const client = new Client({ connectionString: state.adminUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE datname = $1 OR datname LIKE $2`,
      [state.templateDb, `${state.templateDb}_f%`],
    );
    for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
  const embedded = (globalThis as { __embeddedPg?: { stop(): Promise<void> } }).__embeddedPg;
  if (embedded) await embedded.stop();
  if (state.embeddedDir) rmSync(state.embeddedDir, { recursive: true, force: true });
  if (state.openApiDir) rmSync(state.openApiDir, { recursive: true, force: true });
  rmSync(stateFile(process.pid), { force: true });
  await checkEventCoverage();
}
