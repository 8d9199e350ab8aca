import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Pool } from 'pg';
import { createApiApp } from '../../apps/api/bootstrap';
import { loadConfig } from '#platform/config/app-config';
import { ensureDatabase, migrate } from '#platform/persistence/database';
import { ChildProcess, spawn } from 'node:child_process';
import { QaSeedService } from '#platform/seed/qa-seed.service';
import { waitFor } from '../support/eventually';

/** Starts this file's PostgreSQL in a child process; stop() is a clean shutdown (SIGTERM). */
async function startPostgres(dir: string, port: number) {
  const child: ChildProcess = spawn(
    process.execPath,
    [path.join(__dirname, '../support/embedded-pg.mjs'), dir, String(port)],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => String(d).includes('ready') && resolve());
    child.once('exit', (code) => reject(new Error(`embedded PostgreSQL exited with ${code}`)));
  });
  const admin = `postgres://postgres:postgres@127.0.0.1:${port}/postgres`;
  await ensureDatabase(admin, 'chaos');
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/chaos`,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

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
 * The database stopped and restarted under load, on a PostgreSQL of this file's own (stopping it
 * touches no other test): 503 service_unavailable with Retry-After while it is down, never a
 * 500; the API recovers by itself; every write acknowledged with 201 is in the database after.
 */
describe('database stopped and restarted under load', () => {
  let dir: string;
  let port: number;
  let pg: Awaited<ReturnType<typeof startPostgres>>;
  let app: Awaited<ReturnType<typeof createApiApp>>['app'];
  let server: http.Server;
  let key: string;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'erp-chaos-pg-'));
    chmodSync(dir, 0o755);
    port = await freePort();
    pg = await startPostgres(path.join(dir, 'data'), port);
    await migrate(pg.url);
    const config = loadConfig(
      {},
      {
        DATABASE_URL: pg.url,
        REDIS_URL: process.env.REDIS_URL || undefined,
        QUEUE_PREFIX: `chaos${process.pid}`,
        LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
        DB_POOL_MAX: 6,
        RATE_LIMIT_PER_MINUTE: 1_000_000,
      },
    );
    app = (await createApiApp(config)).app;
    server = app.getHttpServer() as http.Server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    key = (await app.get(QaSeedService).run()).entities.primary.keys.live;
  }, 120_000);
  afterAll(async () => {
    await app?.close().catch(() => undefined);
    await pg?.stop().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  });

  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  const send = (method: string, pathname: string, body?: unknown) =>
    new Promise<{ status: number; json: Record<string, unknown>; retryAfter?: string }>((resolve) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const req = http.request(
        {
          host: '127.0.0.1',
          port: (server.address() as net.AddressInfo).port,
          method,
          path: pathname,
          agent,
          headers: {
            Authorization: `Bearer ${key}`,
            ...(payload
              ? { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) }
              : {}),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            let json: Record<string, unknown>;
            try {
              json = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
            } catch {
              json = {};
            }
            resolve({
              status: res.statusCode ?? 0,
              json,
              retryAfter: res.headers['retry-after'] as string | undefined,
            });
          });
        },
      );
      req.on('error', () => resolve({ status: 0, json: {} }));
      req.end(payload);
    });

  it('answers 503 while the database is down, recovers, and loses no acknowledged write', async () => {
    // A queue or worker without an 'error' listener would print its backend's connection errors
    // as unhandled-error dumps when the server goes away.
    const consoleErrors = jest.spyOn(console, 'error');
    const acknowledged: string[] = [];
    /** Retry-After of every 503 answered (one value: 5 seconds). */
    const retryAfters = new Set<string>();
    const statuses = new Map<string, number>();
    let phase: 'before' | 'down' | 'after' = 'before';
    let running = true;
    let n = 0;
    const count = (status: number) =>
      statuses.set(`${phase}:${status}`, (statuses.get(`${phase}:${status}`) ?? 0) + 1);
    const worker = async () => {
      while (running) {
        const name = `chaos ${n++}`;
        const res = await send('POST', '/v1/tags', { name });
        count(res.status);
        if (res.status === 201) acknowledged.push(String(res.json.id));
        if (res.status === 503) retryAfters.add(String(res.retryAfter));
        const read = await send('GET', '/v1/tags?limit=5');
        count(read.status);
      }
    };
    const workers = Array.from({ length: 8 }, () => worker());
    // Each phase keeps the load running for a set time: the durations are the experiment's, not a
    // wait for a condition.
    await new Promise((r) => setTimeout(r, 2000));

    phase = 'down';
    await pg.stop();
    await new Promise((r) => setTimeout(r, 4000));
    const restartedAt = Date.now();
    pg = await startPostgres(path.join(dir, 'data'), port);
    phase = 'after';
    const recovered = await waitFor(async () => (await send('GET', '/v1/tags?limit=1')).status === 200, {
      timeoutMs: 60_000,
      everyMs: 100,
      label: 'the API answering again',
    }).then(
      () => true,
      () => false,
    );
    const recoveredMs = recovered ? Date.now() - restartedAt : -1;
    await new Promise((r) => setTimeout(r, 2000));
    running = false;
    await Promise.all(workers);
    agent.destroy();

    const summary = Object.fromEntries(statuses);
    process.stderr.write(
      `database restart: ${JSON.stringify(summary)}; acknowledged ${acknowledged.length}; recovered ${recoveredMs} ms after the server was back\n`,
    );
    expect(recoveredMs).toBeGreaterThanOrEqual(0);
    const fiveHundreds = [...statuses.entries()].filter(([k]) => /:50[0-2]$/.test(k));
    expect(fiveHundreds).toEqual([]);
    expect(summary['down:503'] ?? 0).toBeGreaterThan(0);
    expect([...retryAfters]).toEqual(['5']);
    expect(summary['after:201'] ?? 0).toBeGreaterThan(0);
    const unhandled = consoleErrors.mock.calls.filter((args) => /Unhandled error/.test(String(args[0])));
    consoleErrors.mockRestore();
    expect(unhandled).toEqual([]);
    const db = new Pool({ connectionString: pg.url, max: 1 });
    try {
      const found = await db.query(`SELECT count(*)::int AS n FROM tags WHERE id = ANY($1::uuid[])`, [
        acknowledged,
      ]);
      expect(found.rows[0].n).toBe(acknowledged.length);
    } finally {
      await db.end();
    }
  }, 180_000);
});
