import http from 'node:http';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { Logger } from 'pino';
import { AppConfig } from '#platform/config/app-config';
import { createLogger, PinoNestLogger } from '#platform/observability/logger';
import { AppMetrics, serveMetrics } from '#platform/observability/metrics';
import { ReadinessService } from '#platform/observability/readiness.service';
import { DispatcherModule } from './dispatcher.module';

export interface Dispatcher {
  app: INestApplicationContext;
  logger: Logger;
  /** /health (liveness) and /ready (database and queue) of the worker. */
  health: http.Server;
  close(): Promise<void>;
}

const json = (res: http.ServerResponse, status: number, body: unknown) =>
  res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));

/** Boots the worker app as an application context (no API routes) with its health listener on `port`. */
export async function startDispatcher(
  config: AppConfig,
  port = config.DISPATCHER_HEALTH_PORT,
): Promise<Dispatcher> {
  const logger = createLogger(config.LOG_LEVEL, undefined, config.LOG_FORMAT);
  const app = await NestFactory.createApplicationContext(DispatcherModule.forRoot(config), {
    logger: config.LOG_LEVEL === 'silent' ? false : new PinoNestLogger(logger),
  });
  const readiness = app.get(ReadinessService);
  const health = http.createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method !== 'GET')
      return json(res, 405, {
        error: 'method_not_allowed',
        code: 'method_not_allowed',
        type: 'validation_error',
      });
    if (path === '/health') return json(res, 200, { status: 'ok' });
    if (path === '/metrics' && config.METRICS_TOKEN) {
      return void serveMetrics(req, res, config, app.get(AppMetrics)).catch((error: unknown) => {
        logger.error({ err: error }, 'metrics scrape failed');
        if (!res.headersSent)
          json(res, 503, { error: 'service_unavailable', code: 'service_unavailable', type: 'internal' });
      });
    }
    if (path === '/ready') {
      return void readiness.check().then((checks) => {
        const ok = Object.values(checks).every((c) => c === 'ok');
        json(res, ok ? 200 : 503, { status: ok ? 'ok' : 'unavailable', checks });
      });
    }
    json(res, 404, { error: 'not_found', code: 'not_found', type: 'not_found' });
  });
  await new Promise<void>((resolve) => health.listen(port, config.HOST, resolve));
  return {
    app,
    logger,
    health,
    async close() {
      await new Promise((resolve) => health.close(resolve));
      await app.close();
    },
  };
}
