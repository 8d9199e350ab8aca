import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { loadConfig } from '#platform/config/app-config';
import { migrate } from '#platform/persistence/database';
import { EmbeddedPostgresAccessError } from '#platform/persistence/embedded-access';
import { QA_ENTITY_CODES, QaSeedDocument } from '#platform/seed/qa-seed.service';
import { runSeed } from './seed-runner';

const SEED_FILE = path.resolve('.data/seed.json');

async function qaEntityExists(url: string): Promise<boolean> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const result = await client.query('SELECT 1 FROM entities WHERE code = $1', [QA_ENTITY_CODES.primary]);
    return (result.rowCount ?? 0) > 0;
  } finally {
    await client.end();
  }
}

/** The embedded PostgreSQL in its own process group (see embedded-database.ts). */
async function startDatabaseProcess(): Promise<{ url: string; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, [path.resolve(__dirname, 'embedded-database.js')], {
    detached: true,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) =>
    child.exitCode !== null ? resolve() : child.once('exit', () => resolve()),
  );
  const url = await new Promise<string>((resolve, reject) => {
    child.once('message', (message: { url?: string; error?: string }) =>
      message.url ? resolve(message.url) : reject(new Error(message.error ?? 'the database did not start')),
    );
    child.once('exit', (code) => reject(new Error(`the embedded PostgreSQL process exited (${code})`)));
  });
  return {
    url,
    stop: async () => {
      if (child.connected) child.send('stop');
      await exited;
    },
  };
}

/** Waits until GET <url> answers 200 (the API's and the dispatcher's readiness). */
async function waitUntilReady(url: string, timeoutMs = 120_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const ready = await fetch(url).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) return true;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return false;
}

/**
 * `npm start`: the embedded default. Starts PostgreSQL when DATABASE_URL is unset, applies
 * migrations, seeds the QA dataset on first start, runs the API and the dispatcher, and, once
 * both answer their readiness checks, prints the base URL and the demo keys last.
 *
 * On Ctrl-C or SIGTERM the API and the dispatcher drain first; the embedded database stops after
 * both have exited, so no connection of theirs is cut by the database shutting down.
 */
async function main() {
  const config = loadConfig();
  const database = config.DATABASE_URL ? { url: config.DATABASE_URL } : await startDatabaseProcess();
  const stopDatabase = 'stop' in database ? database.stop : async () => undefined;
  try {
    await migrate(database.url);
  } catch (error) {
    await stopDatabase();
    throw error;
  }
  config.DATABASE_URL = database.url;

  let seed: QaSeedDocument | undefined;
  if (!(await qaEntityExists(database.url)) || !existsSync(SEED_FILE)) {
    seed = await runSeed(config);
    mkdirSync(path.dirname(SEED_FILE), { recursive: true });
    writeFileSync(SEED_FILE, JSON.stringify(seed, null, 2));
  } else {
    seed = JSON.parse(readFileSync(SEED_FILE, 'utf8')) as QaSeedDocument;
  }

  const env = { ...process.env, DATABASE_URL: database.url };
  const children: ChildProcess[] = [
    spawn(process.execPath, [path.resolve(__dirname, '../apps/api/main.js')], { env, stdio: 'inherit' }),
    spawn(process.execPath, [path.resolve(__dirname, '../apps/webhook-dispatcher/main.js')], {
      env,
      stdio: 'inherit',
    }),
  ];

  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
    await Promise.all(
      children.map(
        (c) => new Promise((resolve) => (c.exitCode !== null ? resolve(null) : c.once('exit', resolve))),
      ),
    );
    await stopDatabase();
    process.exit(code);
  };
  for (const child of children) child.once('exit', (code) => void stop(code ?? 1));
  process.once('SIGINT', () => void stop(0));
  process.once('SIGTERM', () => void stop(0));

  const origin = config.baseUrl.replace(/\/v1$/, '');
  const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? '127.0.0.1' : config.HOST;
  const ready =
    (await waitUntilReady(`http://${host}:${config.PORT}/ready`)) &&
    (await waitUntilReady(`http://${host}:${config.DISPATCHER_HEALTH_PORT}/ready`));
  if (stopping) return;
  if (!ready) console.error('\nThe API or the dispatcher did not become ready; see the log lines above.');

  console.log(
    `\nBusiness Operations API\n  base URL:    ${config.baseUrl}\n  sandbox URL: ${config.sandboxBaseUrl}\n  reference:   ${origin}/docs`,
  );
  console.log(`\nDemo keys of entity ${seed.entities.primary.code} (${seed.entities.primary.id}):`);
  for (const [name, key] of Object.entries(seed.entities.primary.keys))
    console.log(`  ${name.padEnd(14)} ${key}`);
  console.log(`The QA seed document is in ${path.relative(process.cwd(), SEED_FILE)}.`);
  console.log('Stop with Ctrl-C: the API and the dispatcher drain, then the database stops.\n');
}

main().catch((error: unknown) => {
  // An actionable failure (e.g. EmbeddedPostgresAccessError) is printed as its message alone.
  console.error(error instanceof EmbeddedPostgresAccessError ? error.message : error);
  process.exit(1);
});
