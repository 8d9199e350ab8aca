import { PreparingClient } from '#platform/persistence/prepared-statements';
import { waitFor } from '../support/eventually';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * A pooled connection that PostgreSQL ends while its holder runs no statement (a shutdown between
 * two statements of a transaction) must not end the process: the failure is noted on the client,
 * whose next statement is refused, and the pool drops it on release.
 */
describe('a pooled connection lost between statements', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  it('marks the client broken instead of throwing an unhandled error event', async () => {
    const client = new PreparingClient({ connectionString: app.databaseUrl });
    await client.connect();
    const { rows } = (await client.query('SELECT pg_backend_pid() AS pid')) as { rows: { pid: number }[] };
    // The client has no listener of a holder's: without its own, the FATAL message PostgreSQL
    // sends on termination would be thrown as an uncaught exception and fail this file.
    await app.db.query('SELECT pg_terminate_backend($1)', [rows[0].pid]);
    await waitFor(() => (client as unknown as { _queryable: boolean })._queryable === false, {
      timeoutMs: 5000,
      label: 'the client noticed its connection ended',
    });
    await expect(client.query('SELECT 1')).rejects.toThrow(/not queryable|terminat|Connection/i);
    await client.end().catch(() => undefined);
  });
});
