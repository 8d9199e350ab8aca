import http from 'node:http';
import { NestFactory } from '@nestjs/core';
import { loadConfig } from '../../libs/platform/config/app-config';
import { migrate, resolveDatabaseUrl } from '../../libs/platform/persistence/database';
import { createLogger, PinoNestLogger } from '../../libs/platform/observability/logger';
import { ReadinessService } from '../../libs/platform/observability/readiness.service';
import { DispatcherModule } from './dispatcher.module';

/** Boots the worker as an application context, with /health and /ready on DISPATCHER_HEALTH_PORT. */
async function main() {
  const config = loadConfig();
  const database = await resolveDatabaseUrl(config);
  if (!config.DATABASE_URL) await migrate(database.url);
  config.DATABASE_URL = database.url;
  const logger = createLogger(config.LOG_LEVEL);
  const app = await NestFactory.createApplicationContext(DispatcherModule.forRoot(config), {
    logger: new PinoNestLogger(logger),
  });
  const readiness = app.get(ReadinessService);
  const health = http.createServer(async (req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path === '/health') {
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ status: 'ok' }));
    } else if (path === '/ready') {
      const checks = await readiness.check();
      const ok = Object.values(checks).every((c) => c === 'ok');
      res.writeHead(ok ? 200 : 503, { 'Content-Type': 'application/json' }).end(JSON.stringify({ status: ok ? 'ok' : 'unavailable', checks }));
    } else {
      res.writeHead(404, { 'Content-Type': 'application/json' }).end(JSON.stringify({ error: { error: 'not_found', code: 'not_found', type: 'not_found' } }));
    }
  });
  await new Promise<void>((resolve) => health.listen(config.DISPATCHER_HEALTH_PORT, config.HOST, resolve));
  logger.info({ health: `http://${config.HOST}:${config.DISPATCHER_HEALTH_PORT}/health` }, 'dispatcher running');

  const shutdown = async () => {
    health.close();
    await app.close();
    await database.stop?.();
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown());
  process.once('SIGINT', () => void shutdown());
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
