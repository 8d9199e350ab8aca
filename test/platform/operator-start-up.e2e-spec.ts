import { ChildProcess, execFileSync, fork, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { Client } from 'pg';
import { MIGRATIONS } from '../../db/migrations';
import { ensureDatabase, migrate, startEmbeddedPostgres } from '#platform/persistence/database';
import { main as admin } from '../../scripts/admin';
import { freePort } from '../support/redis-server';
import { readRunState, withDatabase } from '../support/test-env';

const root = path.resolve(__dirname, '../..');
const NO_TABLES = 'The database has no tables yet: run `npm run db:migrate` first.';

const collect = () => {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (d: Buffer) => (text += d.toString()));
  return { stream, text: () => text };
};

async function runAdmin(env: NodeJS.ProcessEnv, ...argv: string[]) {
  const out = collect();
  const err = collect();
  const code = await admin(argv, out.stream, err.stream, env);
  return { code, out: out.text(), err: err.text() };
}

/** Runs a built app (`dist/...`) until it exits (at most 60 s): its exit code and output. */
async function runBuilt(
  script: string,
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [path.join(root, script)], { cwd: root, env, stdio: 'pipe' });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  clearTimeout(timer);
  return { code, output };
}

async function sql(url: string, text: string): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

describe('operator commands next to a running embedded server', () => {
  let dir: string;
  let server: ChildProcess;
  let url: string;
  let port: number;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'erp-running-pg-'));
    // The server runs as an unprivileged user when the tests run as root.
    chmodSync(dir, 0o755);
    port = await freePort();
    // What `npm start` does: a process of its own runs the embedded server, which owns the data
    // directory while it runs.
    execFileSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'pipe' });
    server = fork(path.join(root, 'dist/scripts/embedded-database.js'), [], {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        EMBEDDED_PG_DIR: path.join(dir, 'data'),
        EMBEDDED_PG_PORT: String(port),
      },
      stdio: 'pipe',
    });
    const message = await new Promise<{ url?: string; error?: string }>((resolve) =>
      server.once('message', (m) => resolve(m as { url?: string; error?: string })),
    );
    if (!message.url) throw new Error(`embedded server did not start: ${message.error}`);
    url = message.url;
    env = {
      EMBEDDED_PG_DIR: path.join(dir, 'data'),
      // Not the running server's port: the tools find that one in the data directory.
      EMBEDDED_PG_PORT: String(await freePort()),
      DB_POOL_MAX: '2',
      QUEUE_PREFIX: `running_pg_${process.pid}`,
    };
  }, 180_000);
  afterAll(async () => {
    if (server?.connected) {
      server.send('stop');
      await new Promise((resolve) => server.once('exit', resolve));
    }
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('admin uses the running server: first says to migrate, then lists what it created there', async () => {
    expect(await runAdmin(env, 'entities:list')).toEqual({ code: 1, out: '', err: `${NO_TABLES}\n` });

    await migrate(url);
    const created = await runAdmin(
      env,
      'entities:create',
      '--code',
      'runningpg',
      '--name',
      'Running PG Ltd',
      '--currency',
      'USD',
    );
    expect(created).toMatchObject({ code: 0, err: '' });
    const listed = await runAdmin(env, 'entities:list', '--json');
    expect(listed.code).toBe(0);
    expect((JSON.parse(listed.out) as { code: string }[]).map((e) => e.code)).toContain('runningpg');

    // The entity is in the running server's database, read without the tool.
    const client = new Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query<{ name: string }>(
        `SELECT name FROM entities WHERE code = 'runningpg'`,
      );
      expect(rows).toEqual([{ name: 'Running PG Ltd' }]);
    } finally {
      await client.end();
    }
  }, 180_000);

  it('a second embedded server on the same data directory is refused with the URL to use', async () => {
    await expect(startEmbeddedPostgres(path.join(dir, 'data'), await freePort())).rejects.toThrow(
      `already runs on ${path.join(dir, 'data')}, on port ${port}. Use it (DATABASE_URL=postgres://postgres:postgres@127.0.0.1:${port}/erp)`,
    );
  });
});

describe('built apps on a database with pending migrations', () => {
  const { adminUrl } = readRunState();
  const empty = `erp_unmigrated_${process.pid}_${Date.now()}`;
  const behind = `erp_behind_${process.pid}_${Date.now()}`;
  const last = MIGRATIONS[MIGRATIONS.length - 1].name;

  beforeAll(async () => {
    // Nothing to do when dist is current.
    execFileSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'pipe' });
    await ensureDatabase(adminUrl, empty);
    await ensureDatabase(adminUrl, behind);
    await migrate(withDatabase(adminUrl, behind));
    await sql(withDatabase(adminUrl, behind), `DELETE FROM schema_migrations WHERE name = '${last}'`);
  }, 300_000);
  afterAll(async () => {
    for (const database of [empty, behind]) {
      await sql(adminUrl, `DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    }
  });

  const appEnv = async (database: string): Promise<NodeJS.ProcessEnv> => ({
    PATH: process.env.PATH,
    DATABASE_URL: withDatabase(adminUrl, database),
    PORT: String(await freePort()),
    SANDBOX_PORT: String(await freePort()),
    DISPATCHER_HEALTH_PORT: String(await freePort()),
    QUEUE_PREFIX: `unmigrated_${process.pid}`,
    DB_POOL_MAX: '2',
  });

  it('the API and the dispatcher refuse to start on an empty database and name the command', async () => {
    for (const app of ['dist/apps/api/main.js', 'dist/apps/webhook-dispatcher/main.js']) {
      const { code, output } = await runBuilt(app, await appEnv(empty));
      expect({ app, code }).toEqual({ app, code: 1 });
      expect(output).toContain(NO_TABLES);
      expect(output).not.toContain('does not exist');
    }
  }, 180_000);

  it('the API names the pending migration on a database one migration behind', async () => {
    const { code, output } = await runBuilt('dist/apps/api/main.js', await appEnv(behind));
    expect(code).toBe(1);
    expect(output).toContain(
      `The database schema is behind this version: 1 migration(s) pending (${last}): run \`npm run db:migrate\` first.`,
    );
  }, 120_000);
});
