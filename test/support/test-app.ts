import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { ModuleMetadata } from '@nestjs/common';
import { Pool } from 'pg';
import request from 'supertest';
import type { DestinationStream } from 'pino';
import { applyServerLimits, createApiApp } from '../../apps/api/bootstrap';
import { AppConfig, loadConfig } from '#platform/config/app-config';
import { createApiServer } from '#platform/http/api-request';
import { QaSeedDocument, QaSeedService } from '#platform/seed/qa-seed.service';
import { shareOpenApi, sharedOpenApi } from './openapi-cache';
import type { OpenApiDocument } from './openapi-validator';
import { readRunState, withDatabase } from './test-env';

export interface TestApp {
  /** The main listener (pass to supertest). */
  server: http.Server;
  /** The sandbox listener (test keys only). */
  sandbox: http.Server;
  seed: QaSeedDocument;
  /** Direct access for assertions on stored rows. */
  db: Pool;
  config: AppConfig;
  databaseUrl: string;
  /** The app's own OpenAPI description: api() checks every response against it. */
  openapi: OpenApiDocument;
  get<T>(token: abstract new (...args: never[]) => T): T;
  close(): Promise<void>;
}

/** A start slower than this prints where its time went (CI logs show which phase stalls). */
const SLOW_START_MS = 20_000;

function startPhases() {
  const started = Date.now();
  let last = started;
  const marks: string[] = [];
  return {
    mark(name: string) {
      const now = Date.now();
      marks.push(`${name} +${now - last} ms`);
      last = now;
    },
    reportIfSlow() {
      const total = Date.now() - started;
      if (total > SLOW_START_MS) process.stderr.write(`startTestApp took ${total} ms: ${marks.join(', ')}\n`);
    },
  };
}

/** A fresh copy of the migrated template database for one test file. */
export async function createTestDatabase(): Promise<string> {
  const state = readRunState();
  const name = `${state.templateDb}_f${randomBytes(5).toString('hex')}`;
  const admin = new Pool({ connectionString: state.adminUrl, max: 1 });
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${state.templateDb}"`);
        break;
      } catch (error) {
        if (attempt >= 20 || !String(error).includes('being accessed by other users')) throw error;
        await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
      }
    }
  } finally {
    await admin.end();
  }
  return withDatabase(state.adminUrl, name);
}

export interface StartTestAppOptions {
  /** Test-only modules mounted next to the product's. */
  extraModules?: NonNullable<ModuleMetadata['imports']>;
  /** Boot a second instance on this app's database: no new database, no re-seeding, same seed document. */
  sameDatabaseAs?: TestApp;
  /** Captures the app's log lines instead of discarding them. */
  logDestination?: DestinationStream;
}

/** Boots the real API on a fresh copy of the migrated template database, seeded with the QA dataset. */
export async function startTestApp(
  overrides: Partial<AppConfig> = {},
  options: StartTestAppOptions = {},
): Promise<TestApp> {
  const state = readRunState();
  const phases = startPhases();
  const databaseUrl = options.sameDatabaseAs?.databaseUrl ?? (await createTestDatabase());
  phases.mark('database copied');
  const config = loadConfig(
    {},
    {
      DATABASE_URL: databaseUrl,
      REDIS_URL: state.redisUrl,
      // Instances of one deployment share the prefix (queues and the Redis rate-limit counters).
      QUEUE_PREFIX:
        options.sameDatabaseAs?.config.QUEUE_PREFIX ??
        state.queuePrefix ??
        `t${randomBytes(4).toString('hex')}`,
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      DB_POOL_MAX: 3,
      QUEUE_DB_POOL_MAX: 1,
      WEBHOOK_ALLOW_PRIVATE_TARGETS: true,
      CONNECTOR_ALLOW_PRIVATE_TARGETS: true,
      // No scheduled pull of the seeded sandbox shop: its orders would land in other suites' counts.
      INTEGRATION_IMPORT_INTERVAL_MS: 0,
      // Suites send bad keys on purpose from one address; the throttle has its own suites.
      AUTH_FAILURES_PER_MINUTE: 1_000_000,
      AUTH_FAILURES_PER_MINUTE_PER_ENTITY: 1_000_000,
      AUTH_FAILURE_MIN_MS: 0,
      ...overrides,
    },
  );
  // Test-only modules add routes: such an app builds its own description.
  const openApiDir = options.extraModules ? undefined : state.openApiDir;
  const sharedDocument = sharedOpenApi(openApiDir, config);
  const { app, sandboxHandler } = await createApiApp(config, {
    extraModules: options.extraModules,
    logDestination: options.logDestination,
    openApiDocument: sharedDocument,
  });
  phases.mark('app created');
  const server = app.getHttpServer() as http.Server;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const sandbox = applyServerLimits(createApiServer(sandboxHandler), config);
  await new Promise<void>((resolve) => sandbox.listen(0, '127.0.0.1', resolve));
  // The template database holds the QA dataset when global setup seeded it; else seed this copy.
  const seed =
    options.sameDatabaseAs?.seed ??
    (state.seed ? { ...state.seed, base_url: config.baseUrl } : await app.get(QaSeedService).run());
  const db = new Pool({ connectionString: databaseUrl, max: 4 });
  const openapi = (await request(server).get('/v1/openapi.json').expect(200)).body as OpenApiDocument;
  if (!sharedDocument) shareOpenApi(openApiDir, config, openapi);
  phases.mark('listening and seeded');
  phases.reportIfSlow();
  return {
    openapi,
    server,
    sandbox,
    seed,
    db,
    config,
    databaseUrl,
    get: (token) => app.get(token),
    async close() {
      await new Promise((resolve) => sandbox.close(resolve));
      await app.close();
      await db.end();
    },
  };
}
