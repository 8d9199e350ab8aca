import { loadConfig } from '#platform/config/app-config';
import { migrate, resolveDatabaseUrl } from '#platform/persistence/database';
import { assertSchemaCurrent } from '#platform/persistence/schema-state';
import { failureText } from '#platform/observability/failure-text';
import { logUncaughtErrors, routeConsoleToLogger } from '#platform/observability/logger';
import { startDispatcher } from './bootstrap';

/** Runs the worker app with /health and /ready on DISPATCHER_HEALTH_PORT; stops cleanly on SIGTERM. */
async function main() {
  const config = loadConfig();
  const database = await resolveDatabaseUrl(config);
  if (!config.DATABASE_URL) await migrate(database.url);
  else await assertSchemaCurrent(database.url);
  config.DATABASE_URL = database.url;
  const dispatcher = await startDispatcher(config);
  // Every line on stdout stays one JSON object, also what libraries print.
  routeConsoleToLogger(dispatcher.logger);
  logUncaughtErrors(dispatcher.logger);
  const { port } = dispatcher.health.address() as { port: number };
  dispatcher.logger.info({ health: `http://${config.HOST}:${port}/health` }, 'dispatcher running');

  const shutdown = async () => {
    await dispatcher.close();
    await database.stop?.();
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown());
  process.once('SIGINT', () => void shutdown());
}

main().catch((error: unknown) => {
  console.error(failureText(error));
  process.exit(1);
});
