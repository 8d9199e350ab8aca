import { Client } from 'pg';
import { MIGRATIONS } from '../../db/migrations';
import { ensureDatabase, migrate } from '#platform/persistence/database';
import { readRunState, withDatabase } from '../support/test-env';

/**
 * Every pod of a release runs the migrations before it serves (deploy/kubernetes: an init
 * container of each Deployment), so several processes migrate one database at the same moment.
 * They must apply each migration exactly once between them, and all succeed.
 */
describe('migrations run by several processes at once', () => {
  const { adminUrl } = readRunState();
  const database = `erp_migrate_race_${process.pid}_${Date.now()}`;
  const url = withDatabase(adminUrl, database);

  // Creating and dropping a database on a loaded shared server can take longer than the default
  // hook timeout (a drop of this database once took over 60 s while two suites ran at once).
  beforeAll(() => ensureDatabase(adminUrl, database), 180_000);
  afterAll(async () => {
    const admin = new Client({ connectionString: adminUrl });
    await admin.connect();
    try {
      await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    } finally {
      await admin.end();
    }
  }, 180_000);

  it('apply each migration once, the later runs finding nothing pending', async () => {
    const runs = await Promise.all([migrate(url), migrate(url), migrate(url)]);
    const applied = runs.flat();
    expect([...applied].sort()).toEqual(MIGRATIONS.map((m) => m.name).sort());
    expect(runs.filter((names) => names.length > 0)).toHaveLength(1);

    const db = new Client({ connectionString: url });
    await db.connect();
    try {
      const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM schema_migrations');
      expect(rows[0].n).toBe(MIGRATIONS.length);
    } finally {
      await db.end();
    }
    expect(await migrate(url)).toEqual([]);
  }, 120_000);
});
