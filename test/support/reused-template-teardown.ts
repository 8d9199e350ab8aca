import { rmSync } from 'node:fs';
import { Client } from 'pg';
import { readRunState, stateFile } from './test-env';

/** Teardown of a run of `scripts/tests-alone.mjs`: drops the run's copies, keeps the shared template. */
export default async function reusedTemplateTeardown(): Promise<void> {
  const state = readRunState();
  const client = new Client({ connectionString: state.adminUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE datname LIKE $1`,
      [`${state.templateDb}_f%`],
    );
    for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
  rmSync(stateFile(process.pid), { force: true });
}
