import { failureText } from '#platform/observability/failure-text';
import { loadConfig } from '#platform/config/app-config';
import { migrate, resolveDatabaseUrl } from '#platform/persistence/database';
import { runSeed } from './seed-runner';

/** `npm run db:seed`: recreates the QA dataset and prints exactly one JSON document on stdout. */
async function main() {
  const config = loadConfig(process.env, { LOG_LEVEL: 'silent' });
  const database = await resolveDatabaseUrl(config);
  try {
    if (!config.DATABASE_URL) await migrate(database.url);
    config.DATABASE_URL = database.url;
    const document = await runSeed(config);
    process.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
  } finally {
    await database.stop?.();
  }
}

main().catch((error: unknown) => {
  console.error(failureText(error));
  process.exit(1);
});
