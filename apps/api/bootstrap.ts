import http from 'node:http';
import type { ModuleMetadata } from '@nestjs/common';
import type { RequestHandler } from 'express';
import { DiscoveryService, NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { OpenAPIObject } from '@nestjs/swagger';
import type { DestinationStream, Logger } from 'pino';
import { AppConfig } from '#platform/config/app-config';
import { ActivityLog, activityLogMiddleware } from '#platform/activity/activity-log';
import { ApiExpressAdapter } from '#platform/http/api-express-adapter';
import { ApiPipelineInterceptor, attachPipelineInterceptor } from '#platform/http/api-pipeline.interceptor';
import { entityAliasMiddleware } from '#platform/http/entity-alias.middleware';
import { handleClientError } from '#platform/http/client-errors';
import { bodyPreflightMiddleware } from '#platform/http/request-body';
import {
  chainMiddleware,
  notFoundMiddleware,
  requestContextMiddleware,
} from '#platform/http/request-pipeline.middleware';
import { indexRouteLayers } from '#platform/http/route-index';
import { RouteRegistry, UNVERSIONED_CONTROLLERS } from '#platform/http/route-registry';
import { DescribedQuery } from '#platform/http/described-query';
import { createLogger, httpLogger, PinoNestLogger } from '#platform/observability/logger';
import { AppMetrics, metricsMiddleware, serveMetrics } from '#platform/observability/metrics';
import { mountOpenApi } from '#platform/openapi/openapi';
import { AppModule } from './app.module';

export interface ApiApp {
  app: NestExpressApplication;
  logger: Logger;
  /** Handler of the sandbox listener: the same app, accepting test keys only. */
  sandboxHandler: http.RequestListener;
}

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
  /**
   * The OpenAPI description to serve instead of building it from the routes: one built by an app
   * of the same modules and base URLs (the e2e tests reuse one per run; building it costs about
   * a second of CPU).
   */
  openApiDocument?: OpenAPIObject;
}

/** Builds the API application with the whole request pipeline; `listen` is the caller's. */
export async function createApiApp(config: AppConfig, options: ApiAppOptions = {}): Promise<ApiApp> {
  const logger = createLogger(config.LOG_LEVEL, options.logDestination, config.LOG_FORMAT);
  const adapter = new ApiExpressAdapter();
  const app = await NestFactory.create<NestExpressApplication>(
    AppModule.forRoot(config, options.extraModules),
    adapter,
    {
      bodyParser: false,
      logger: config.LOG_LEVEL === 'silent' ? false : new PinoNestLogger(logger),
      abortOnError: false,
    },
  );
  app.set('trust proxy', config.trustProxy);
  app.set('query parser', 'extended');
  app.set('etag', false);
  app.disable('x-powered-by');
  // The middleware runs as few Express layers as the order allows (chainMiddleware).
  const first: RequestHandler[] = [requestContextMiddleware()];
  if (config.METRICS_TOKEN) {
    first.push(metricsMiddleware(() => app.get(AppMetrics)));
    app.use(chainMiddleware(first.splice(0)));
    app.use('/metrics', (req: http.IncomingMessage, res: http.ServerResponse, next: () => void) =>
      req.method === 'GET' ? void serveMetrics(req, res, config, app.get(AppMetrics)).catch(next) : next(),
    );
  }
  if (config.LOG_LEVEL !== 'silent') first.push(httpLogger(logger));
  first.push(
    activityLogMiddleware(() => ({ log: app.get(ActivityLog), routes: app.get(RouteRegistry) })),
    // Bodies are read by the API guard once the caller is known; this only refuses oversize declarations.
    bodyPreflightMiddleware(),
    entityAliasMiddleware(() => app.get(RouteRegistry)),
  );
  app.use(chainMiddleware(first));
  app.setGlobalPrefix('v1', { exclude: UNVERSIONED_CONTROLLERS });
  app.get(DescribedQuery).use(mountOpenApi(app, config, options.openApiDocument));
  // The pipeline's interceptor on routes other than GET; a GET's part is the guard's and the reply's.
  const pipeline = app.get(ApiPipelineInterceptor);
  attachPipelineInterceptor(app.get(DiscoveryService), pipeline);
  adapter.usePipeline(pipeline);
  await app.init();
  app.use(notFoundMiddleware());
  const express = app.getHttpAdapter().getInstance() as unknown as http.RequestListener & {
    router: { stack: Parameters<typeof indexRouteLayers>[0] };
    enabled(setting: string): boolean;
  };
  indexRouteLayers(express.router.stack, express.enabled('case sensitive routing'));
  applyServerLimits(app.getHttpServer() as http.Server, config);

  const sandboxHandler: http.RequestListener = (req, res) => {
    (req as http.IncomingMessage & { sandbox?: boolean }).sandbox = true;
    express(req, res);
  };
  return { app, logger, sandboxHandler };
}
