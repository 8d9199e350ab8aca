import { failureText } from '#platform/observability/failure-text';
import { loadConfig } from '#platform/config/app-config';
import { migrate, resolveDatabaseUrl } from '#platform/persistence/database';

/** `npm run db:migrate`: applies pending migrations to DATABASE_URL (or the embedded server). */
async function main() {
  const config = loadConfig();
  const database = await resolveDatabaseUrl(config);
  try {
    const applied = await migrate(database.url);
    console.error(applied.length ? `applied: ${applied.join(', ')}` : 'schema is up to date');
  } finally {
    await database.stop?.();
  }
}

main().catch((error: unknown) => {
  console.error(failureText(error));
  process.exit(1);
});
