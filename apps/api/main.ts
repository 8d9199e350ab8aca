import { loadConfig } from '#platform/config/app-config';
import { migrate, resolveDatabaseUrl } from '#platform/persistence/database';
import { logUncaughtErrors, routeConsoleToLogger } from '#platform/observability/logger';
import { createApiServer } from '#platform/http/api-request';
import { applyServerLimits, createApiApp } from './bootstrap';
import { limitHeapGrowth } from './heap-growth';

/** Starts the API on PORT and the sandbox listener on SANDBOX_PORT; drains both on SIGTERM. */
async function main() {
  limitHeapGrowth();
  const config = loadConfig();
  const database = await resolveDatabaseUrl(config);
  if (!config.DATABASE_URL) await migrate(database.url);
  config.DATABASE_URL = database.url;

  const { app, logger, sandboxHandler } = await createApiApp(config);
  // Every line on stdout stays one JSON object, also what libraries print.
  routeConsoleToLogger(logger);
  logUncaughtErrors(logger);
  await app.listen(config.PORT, config.HOST);
  const sandbox = applyServerLimits(createApiServer(sandboxHandler), config);
  await new Promise<void>((resolve) => sandbox.listen(config.SANDBOX_PORT, config.HOST, resolve));
  logger.info({ base_url: config.baseUrl, sandbox_url: config.sandboxBaseUrl }, 'API listening');

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'draining in-flight requests');
    const force = setTimeout(() => process.exit(1), config.SHUTDOWN_GRACE_MS).unref();
    await new Promise<void>((resolve) => sandbox.close(() => resolve()));
    await app.close();
    await database.stop?.();
    clearTimeout(force);
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
