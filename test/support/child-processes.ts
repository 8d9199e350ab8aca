import { ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import request from 'supertest';
import { waitFor } from './eventually';
import { checkedAgainstOpenApi } from './http';
import type { TestApp } from './test-app';

const ROOT = path.resolve(__dirname, '../..');

/** A port free on 127.0.0.1 at the time of asking. */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });

/** One app of the build (`npm run build`) running as a child process of the test. */
export interface ChildApp {
  readonly name: string;
  readonly process: ChildProcess;
  /** Base URL of the API listener (API processes only). */
  readonly url?: string;
  /** The last lines the process wrote (start-up failures, crashes; logs with TEST_LOG_LEVEL). */
  output(): string;
  /** kill -9, resolved once the process is gone. */
  kill(): Promise<void>;
  /** SIGTERM (graceful shutdown), resolved once the process is gone. */
  stop(): Promise<void>;
}

/** The environment that points a child app at a test app's database and queues. */
function environment(app: TestApp, extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    DATABASE_URL: app.databaseUrl,
    QUEUE_PREFIX: app.config.QUEUE_PREFIX,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    HOST: '127.0.0.1',
    DB_POOL_MAX: '4',
    QUEUE_DB_POOL_MAX: '1',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    // As in test apps: no scheduled pull of the seeded sandbox shop.
    INTEGRATION_IMPORT_INTERVAL_MS: '0',
    ...extra,
  };
  if (app.config.REDIS_URL) env.REDIS_URL = app.config.REDIS_URL;
  return env;
}

function launch(name: string, script: string, env: NodeJS.ProcessEnv, url?: string): ChildApp {
  const main = path.join(ROOT, 'dist', script);
  if (!existsSync(main)) throw new Error(`${main} is missing: run \`npm run build\` first`);
  const child = spawn(process.execPath, [main], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (d: Buffer) => (output = (output + String(d)).slice(-4000));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const ended = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const signal = async (sig: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(sig);
    await ended;
  };
  return {
    name,
    process: child,
    url,
    output: () => output,
    kill: () => signal('SIGKILL'),
    stop: () => signal('SIGTERM'),
  };
}

/** Answers once `url` answers 200, or fails naming the process and what it printed. */
async function healthy(child: ChildApp, url: string): Promise<void> {
  await waitFor(
    async () => {
      if (child.process.exitCode !== null)
        throw new Error(`${child.name} exited with ${child.process.exitCode}: ${child.output()}`);
      return fetch(url).then(
        (r) => r.status === 200,
        () => false,
      );
    },
    { timeoutMs: 240_000, everyMs: 200, label: `${child.name} answering ${url}` },
  ).catch(async (error: Error) => {
    await child.kill();
    throw new Error(`${error.message}; it printed: ${child.output()}`);
  });
}

/** Starts `dist/apps/api/main.js` on the test app's database and queues; resolves once it answers /health. */
export async function startApiProcess(
  app: TestApp,
  name: string,
  extra: Record<string, string> = {},
): Promise<ChildApp> {
  const port = await freePort();
  const sandbox = await freePort();
  const child = launch(
    name,
    'apps/api/main.js',
    environment(app, { PORT: String(port), SANDBOX_PORT: String(sandbox), ...extra }),
    `http://127.0.0.1:${port}`,
  );
  await healthy(child, `${child.url}/health`);
  return child;
}

/** Starts `dist/apps/webhook-dispatcher/main.js` on the test app's database and queues; resolves once it answers /health. */
export async function startDispatcherProcess(
  app: TestApp,
  name: string,
  extra: Record<string, string> = {},
): Promise<ChildApp> {
  const port = await freePort();
  const child = launch(
    name,
    'apps/webhook-dispatcher/main.js',
    environment(app, { DISPATCHER_HEALTH_PORT: String(port), ...extra }),
  );
  await healthy(child, `http://127.0.0.1:${port}/health`);
  return child;
}

/** supertest against a child API with a bearer key; responses are checked against the test app's description. */
export function childApi(app: Pick<TestApp, 'openapi'>, child: ChildApp, key?: string) {
  if (!child.url) throw new Error(`${child.name} has no API listener`);
  const agent = request(child.url);
  const auth = (r: request.Test) =>
    checkedAgainstOpenApi(app, key ? r.set('Authorization', `Bearer ${key}`) : r);
  return {
    get: (p: string) => auth(agent.get(p)),
    post: (p: string) => auth(agent.post(p)),
    patch: (p: string) => auth(agent.patch(p)),
    delete: (p: string) => auth(agent.delete(p)),
    put: (p: string) => auth(agent.put(p)),
  };
}
