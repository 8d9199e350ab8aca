import http from 'node:http';
import type { ModuleMetadata } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { DestinationStream, Logger } from 'pino';
import { AppConfig } from '../../libs/platform/config/app-config';
import { activityLogMiddleware, ActivityRecorder } from '../../libs/platform/activity/activity-recorder';
import { entityAliasMiddleware } from '../../libs/platform/http/entity-alias.middleware';
import { handleClientError } from '../../libs/platform/http/client-errors';
import { bodyPreflightMiddleware } from '../../libs/platform/http/request-body';
import {
  notFoundMiddleware,
  requestContextMiddleware,
} from '../../libs/platform/http/request-pipeline.middleware';
import { RouteRegistry, UNVERSIONED_CONTROLLERS } from '../../libs/platform/http/route-registry';
import { createLogger, httpLogger, PinoNestLogger } from '../../libs/platform/observability/logger';
import { AppMetrics, metricsMiddleware, serveMetrics } from '../../libs/platform/observability/metrics';
import { mountOpenApi } from '../../libs/platform/openapi/openapi';
import { AppModule } from './app.module';

export interface ApiApp {
  app: NestExpressApplication;
  logger: Logger;
  /** Handler of the sandbox listener: the same app, accepting test keys only. */
  sandboxHandler: http.RequestListener;
}

const trustProxy = (value: string | undefined): boolean | number | string => {
  if (value === undefined || value === '' || value === 'false') return false;
  if (value === 'true') return true;
  return /^\d+$/.test(value) ? Number(value) : value;
};

/**
 * Explicit timeouts and a connection cap on a listener (docs/operations.md, "HTTP limits and
 * timeouts"), instead of Node's defaults (5 min per request, no cap).
 */
export function applyServerLimits(server: http.Server, config: AppConfig): http.Server {
  server.headersTimeout = config.HTTP_HEADERS_TIMEOUT_MS;
  server.requestTimeout = config.HTTP_REQUEST_TIMEOUT_MS;
  server.keepAliveTimeout = config.HTTP_KEEP_ALIVE_TIMEOUT_MS;
  server.maxConnections = config.HTTP_MAX_CONNECTIONS;
  // Errors Node raises before the app sees a request (headers over 16 KB, a request that never
  // completes, bytes that are not HTTP) answer in the contract's envelope with a Request-Id.
  server.on('clientError', handleClientError);
  return server;
}

export interface ApiAppOptions {
  /** Modules mounted next to the product's (test-only routes). */
  extraModules?: NonNullable<ModuleMetadata['imports']>;
  /** Where log lines go (standard output by default). */
  logDestination?: DestinationStream;
}

/** Builds the API application with the whole request pipeline; `listen` is the caller's. */
export async function createApiApp(config: AppConfig, options: ApiAppOptions = {}): Promise<ApiApp> {
  const logger = createLogger(config.LOG_LEVEL, options.logDestination);
  const app = await NestFactory.create<NestExpressApplication>(
    AppModule.forRoot(config, options.extraModules),
    {
      bodyParser: false,
      logger: config.LOG_LEVEL === 'silent' ? false : new PinoNestLogger(logger),
      abortOnError: false,
    },
  );
  app.set('trust proxy', trustProxy(config.TRUST_PROXY));
  app.set('query parser', 'extended');
  app.set('etag', false);
  app.disable('x-powered-by');
  app.use(requestContextMiddleware());
  if (config.METRICS_TOKEN) {
    app.use(metricsMiddleware(() => app.get(AppMetrics)));
    app.use('/metrics', (req: http.IncomingMessage, res: http.ServerResponse, next: () => void) =>
      req.method === 'GET' ? void serveMetrics(req, res, config, app.get(AppMetrics)).catch(next) : next(),
    );
  }
  if (config.LOG_LEVEL !== 'silent') app.use(httpLogger(logger));
  app.use(activityLogMiddleware(() => app.get(ActivityRecorder)));
  // Bodies are read by the API guard once the caller is known; this only refuses oversize declarations.
  app.use(bodyPreflightMiddleware());
  app.use(entityAliasMiddleware(() => app.get(RouteRegistry)));
  app.setGlobalPrefix('v1', { exclude: UNVERSIONED_CONTROLLERS });
  mountOpenApi(app, config);
  await app.init();
  app.use(notFoundMiddleware());
  applyServerLimits(app.getHttpServer() as http.Server, config);

  const express = app.getHttpAdapter().getInstance() as http.RequestListener;
  const sandboxHandler: http.RequestListener = (req, res) => {
    (req as http.IncomingMessage & { sandbox?: boolean }).sandbox = true;
    express(req, res);
  };
  return { app, logger, sandboxHandler };
}
