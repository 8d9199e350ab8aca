import { timingSafeEqual } from 'node:crypto';
import type http from 'node:http';
import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import type { NextFunction, Request, Response } from 'express';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { PlatformError } from '../errors/domain-error';
import { renderError } from '../http/error-envelope';
import { QUEUE_NAMES } from '../queue/queues';

interface PgPool {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

/**
 * The process's Prometheus metrics (prom-client), one registry per application instance.
 * Request series are recorded by `metricsMiddleware`; deliveries and ledger postings by the
 * services that do them; pool use, outbox lag and queue depths are read when scraped. Exposed by
 * `GET /metrics` on the API and on the dispatcher's health listener when `METRICS_TOKEN` is set.
 */
@Injectable()
export class AppMetrics implements OnApplicationShutdown {
  readonly registry = new Registry();

  readonly httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'API request duration by route template and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });

  readonly inFlight = new Gauge({
    name: 'http_requests_in_flight',
    help: 'API requests being answered.',
    registers: [this.registry],
  });

  readonly deliveries = new Counter({
    name: 'webhook_deliveries_total',
    help: 'Webhook delivery attempts by outcome (succeeded, retry, failed).',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly deliveryDuration = new Histogram({
    name: 'webhook_delivery_duration_seconds',
    help: 'Time from sending a webhook attempt to its answer (or error), by outcome.',
    labelNames: ['outcome'] as const,
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });

  readonly ledgerPostings = new Counter({
    name: 'ledger_postings_total',
    help: 'Journal entries written, by source type and status (counted when written in their transaction).',
    labelNames: ['source_type', 'status'] as const,
    registers: [this.registry],
  });

  constructor(
    private readonly dataSource: DataSource,
    private readonly moduleRef: ModuleRef,
    config: AppConfig,
  ) {
    // The process series (CPU, memory, event-loop delay, GC) are only read by a scrape, and a
    // scrape needs METRICS_TOKEN; their collectors are the process's own (a GC observer, an
    // event-loop-delay timer), registered with Node for as long as the process lives.
    if (config.METRICS_TOKEN) collectDefaultMetrics({ register: this.registry });
    const pool = () => (this.dataSource.driver as unknown as { master?: PgPool }).master;
    new Gauge({
      name: 'db_pool_connections',
      help: 'Database pool connections by state (total, idle, waiting clients).',
      labelNames: ['state'] as const,
      registers: [this.registry],
      collect() {
        const p = pool();
        if (!p) return;
        this.set({ state: 'total' }, p.totalCount);
        this.set({ state: 'idle' }, p.idleCount);
        this.set({ state: 'waiting' }, p.waitingCount);
      },
    });
    const outboxLag = async () => {
      const [row]: { lag: string | null }[] = await this.dataSource.query(
        `SELECT extract(epoch FROM now() - min(created_at)) AS lag FROM outbox_events WHERE dispatched_at IS NULL`,
      );
      return row?.lag === null || row?.lag === undefined ? 0 : Number(row.lag);
    };
    new Gauge({
      name: 'outbox_lag_seconds',
      help: 'Age of the oldest event not yet dispatched (0 when none waits).',
      registers: [this.registry],
      async collect() {
        this.set(await outboxLag());
      },
    });
    const queues = () =>
      Object.values(QUEUE_NAMES).flatMap((name) => {
        try {
          return [this.moduleRef.get<Queue>(getQueueToken(name), { strict: false })];
        } catch {
          return [];
        }
      });
    new Gauge({
      name: 'queue_jobs',
      help: 'Jobs per queue and state.',
      labelNames: ['queue', 'state'] as const,
      registers: [this.registry],
      async collect() {
        for (const queue of queues()) {
          const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'failed');
          for (const [state, n] of Object.entries(counts)) this.set({ queue: queue.name, state }, n);
        }
      },
    });
  }

  /** The text exposition format. */
  render(): Promise<string> {
    return this.registry.metrics();
  }

  /**
   * Once the application has shut down (its listeners closed: nothing scrapes any more), the
   * registry lets go of its series. The process's collectors still hold the registry, and its
   * series' collect functions hold the application: an application closed in a process that
   * goes on (a test worker, which boots one per test file) can then be freed.
   */
  onApplicationShutdown(): void {
    this.registry.clear();
  }
}

/** Records each request's duration by route template and status, and the requests in flight. */
export function metricsMiddleware(metrics: () => AppMetrics) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const m = metrics();
    const started = process.hrtime.bigint();
    m.inFlight.inc();
    res.once('close', () => {
      m.inFlight.dec();
      const route = req.route?.path ? `${req.baseUrl}${String(req.route.path)}` : 'unmatched';
      m.httpDuration.observe(
        { method: req.method, route, status: String(res.statusCode) },
        Number(process.hrtime.bigint() - started) / 1e9,
      );
    });
    next();
  };
}

const sameToken = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

/**
 * `GET /metrics` for a plain Node handler (the API's Express app, the dispatcher's health
 * listener): the exposition when `Authorization: Bearer <METRICS_TOKEN>` matches, otherwise 401
 * in the error envelope. Answers true when it handled the request.
 */
export async function serveMetrics(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  config: AppConfig,
  metrics: AppMetrics,
): Promise<void> {
  const header = req.headers.authorization ?? '';
  const token = header.startsWith('Bearer ') ? header.slice(7) : '';
  if (!config.METRICS_TOKEN || !sameToken(token, config.METRICS_TOKEN)) {
    const { status, body } = renderError(
      new PlatformError('invalid_api_key', {
        hint: 'GET /metrics needs the METRICS_TOKEN of this deployment as a bearer token.',
      }),
      undefined,
    );
    res.writeHead(status, {
      'Content-Type': 'application/json; charset=utf-8',
      'WWW-Authenticate': 'Bearer realm="metrics"',
    });
    res.end(JSON.stringify(body));
    return;
  }
  const text = await metrics.render();
  res.writeHead(200, { 'Content-Type': metrics.registry.contentType });
  res.end(text);
}
