import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { loadConfig } from '#platform/config/app-config';
import { migrate, resolveDatabaseUrl } from '#platform/persistence/database';
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

/**
 * `npm start`: the embedded default. Starts PostgreSQL when DATABASE_URL is unset, applies
 * migrations, seeds the QA dataset on first start, runs the API and the dispatcher, and
 * prints the base URL and the demo keys.
 */
async function main() {
  const config = loadConfig();
  const database = await resolveDatabaseUrl(config);
  await migrate(database.url);
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

  console.log(
    `\nBusiness Operations API\n  base URL:    ${config.baseUrl}\n  sandbox URL: ${config.sandboxBaseUrl}\n  reference:   ${config.baseUrl.replace(/\/v1$/, '')}/docs`,
  );
  console.log(`\nDemo keys of entity ${seed.entities.primary.code} (${seed.entities.primary.id}):`);
  for (const [name, key] of Object.entries(seed.entities.primary.keys))
    console.log(`  ${name.padEnd(14)} ${key}`);
  console.log(`The QA seed document is in ${path.relative(process.cwd(), SEED_FILE)}.\n`);

  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(
      children.map(
        (c) => new Promise((resolve) => (c.exitCode !== null ? resolve(null) : c.once('exit', resolve))),
      ),
    );
    await database.stop?.();
    process.exit(code);
  };
  for (const child of children) child.once('exit', (code) => void stop(code ?? 1));
  process.once('SIGINT', () => void stop(0));
  process.once('SIGTERM', () => void stop(0));
}

main().catch((error: unknown) => {
  // An actionable failure (e.g. EmbeddedPostgresAccessError) is printed as its message alone.
  console.error(error instanceof EmbeddedPostgresAccessError ? error.message : error);
  process.exit(1);
});
