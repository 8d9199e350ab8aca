import type { Server } from 'node:http';
import { loadConfig } from '#platform/config/app-config';
import { migrate, resolveDatabaseUrl } from '#platform/persistence/database';
import { assertSchemaCurrent } from '#platform/persistence/schema-state';
import { failureText } from '#platform/observability/failure-text';
import { logUncaughtErrors, routeConsoleToLogger } from '#platform/observability/logger';
import { createApiServer } from '#platform/http/api-request';
import { ConnectionDrain } from '#platform/http/connection-drain';
import { applyServerLimits, createApiApp } from './bootstrap';
import { limitHeapGrowth } from './heap-growth';

/**
 * Starts the API on PORT and the sandbox listener on SANDBOX_PORT. On SIGTERM or SIGINT both
 * listeners drain (ConnectionDrain: no new connection, idle ones closed at once, every answer
 * from then on with `Connection: close`); once the requests in flight are answered the
 * application closes (database pool, queues) and the process exits 0, or 1 if that takes longer
 * than SHUTDOWN_GRACE_MS.
 */
async function main() {
  limitHeapGrowth();
  const config = loadConfig();
  const database = await resolveDatabaseUrl(config);
  if (!config.DATABASE_URL) await migrate(database.url);
  else await assertSchemaCurrent(database.url);
  config.DATABASE_URL = database.url;

  const { app, logger, sandboxHandler } = await createApiApp(config);
  // Every line on stdout stays one JSON object, also what libraries print.
  routeConsoleToLogger(logger);
  logUncaughtErrors(logger);
  const drain = new ConnectionDrain().watch(app.getHttpServer() as Server);
  await app.listen(config.PORT, config.HOST);
  const sandbox = applyServerLimits(createApiServer(sandboxHandler), config);
  drain.watch(sandbox);
  await new Promise<void>((resolve) => sandbox.listen(config.SANDBOX_PORT, config.HOST, resolve));
  logger.info({ base_url: config.baseUrl, sandbox_url: config.sandboxBaseUrl }, 'API listening');

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'draining in-flight requests');
    const force = setTimeout(() => process.exit(1), config.SHUTDOWN_GRACE_MS).unref();
    // The listeners drain before the application closes: its shutdown hooks close the database
    // pool, which the requests in flight still use.
    await drain.drain();
    await app.close();
    await database.stop?.();
    clearTimeout(force);
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  console.error(failureText(error));
  process.exit(1);
});
