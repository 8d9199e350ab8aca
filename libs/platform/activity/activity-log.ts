import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { Pool } from 'pg';
import { MUTATING_METHODS } from '../auth/mutation-gate';
import { AppConfig } from '../config/app-config';
import { RouteRegistry } from '../http/route-registry';
import { newId } from '../persistence/ids';
import { KeyedBatches } from '../persistence/keyed-batches';
import { TenantRepository } from '../persistence/tenant-repository';
import { TransactionHost } from '../persistence/transaction-host';
import { Caller, RequestContext } from '../tenancy/request-context';
import { ActivityRecord } from './activity.entity';

/** What work without a request (a job, an import) did, as an activity row. */
export interface WorkActivity {
  method: string;
  path: string;
  resourceType: string;
  resourceId: string;
  status: number;
}

/** What a finished request did, as an activity row. */
export interface RequestActivity {
  entityId: string;
  livemode: boolean;
  apiKeyId: string;
  method: string;
  path: string;
  resourceType: string | null;
  resourceId: string | null;
  status: number;
  requestId: string | null;
}

@Injectable()
class WorkActivityRepository extends TenantRepository.of(ActivityRecord, 'activity entry') {}

/**
 * The activity log: one row per mutation, written two ways.
 *
 * - `record` (work without an HTTP request: a scheduled or requested import writing many records)
 *   writes in the caller's transaction, so a row exists exactly when its work committed.
 * - `recordRequest` (a finished request, from `activityLogMiddleware`) writes after the response,
 *   failures logged and swallowed, through one dedicated connection with
 *   `synchronous_commit=off`, so a row never waits for a WAL flush: a server crash can lose the
 *   last fraction of a second of request rows, never a mutation (those keep synchronous commits).
 */
@Injectable()
export class ActivityLog implements OnApplicationShutdown {
  private readonly logger = new Logger('ActivityLog');
  private readonly entries: WorkActivityRepository;
  private pool?: Pool;
  /** Request rows queued or being written; shutdown waits for them. */
  private pending = 0;
  private drained?: () => void;
  private closed = false;
  private readonly batches = new KeyedBatches<RequestActivity>(500, (entries) =>
    RequestContext.outsideRequest(() => this.write(entries)),
  );

  constructor(
    tx: TransactionHost,
    private readonly config: AppConfig,
  ) {
    this.entries = new WorkActivityRepository(tx);
  }

  /** Writes the row of work done without a request, in the caller's transaction. */
  async record(entry: WorkActivity): Promise<void> {
    const caller = RequestContext.caller();
    await this.entries.create({
      apiKeyId: caller.apiKeyId,
      method: entry.method,
      path: entry.path,
      resourceType: entry.resourceType,
      resourceId: entry.resourceId,
      status: entry.status,
      requestId: RequestContext.requestId() ?? null,
    });
  }

  /**
   * Queues the row of a finished request: rows of requests that finish while a write is running
   * go in together with the next one (one multi-row INSERT), so a busy API spends one statement
   * on many requests' activity and an idle one writes each row at once.
   */
  recordRequest(entry: RequestActivity): void {
    this.pending++;
    this.batches.add('activity', entry);
  }

  /** Writes what is queued (waiting at most 5 s), then closes the connection for good. */
  async onApplicationShutdown(): Promise<void> {
    if (this.pending > 0)
      await new Promise<void>((resolve) => {
        this.drained = resolve;
        setTimeout(resolve, 5000).unref();
      });
    this.closed = true;
    await this.pool?.end().catch(() => undefined);
  }

  private connection(): Pool {
    if (this.closed) throw new Error('the activity log is closed');
    if (!this.pool) {
      this.pool = new Pool({
        connectionString: this.config.DATABASE_URL,
        max: 1,
        options: '-c synchronous_commit=off',
      });
      this.pool.on('error', (error) => this.logger.warn({ err: error }, 'activity log connection failed'));
    }
    return this.pool;
  }

  private async write(entries: RequestActivity[]): Promise<void> {
    try {
      await this.connection().query(
        `INSERT INTO activity_log (id, entity_id, livemode, api_key_id, method, path, resource_type, resource_id, status, request_id)
         SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::boolean[], $4::uuid[], $5::text[], $6::text[], $7::text[], $8::text[], $9::int[], $10::text[])`,
        [
          entries.map(() => newId()),
          entries.map((e) => e.entityId),
          entries.map((e) => e.livemode),
          entries.map((e) => e.apiKeyId),
          entries.map((e) => e.method),
          entries.map((e) => e.path),
          entries.map((e) => e.resourceType),
          entries.map((e) => e.resourceId),
          entries.map((e) => e.status),
          entries.map((e) => e.requestId),
        ],
      );
    } catch (error) {
      this.logger.warn(
        { err: error, request_ids: entries.map((e) => e.requestId) },
        'activity log write failed',
      );
    } finally {
      this.pending -= entries.length;
      if (this.pending === 0) this.drained?.();
    }
  }
}

/** What a finished request did, or undefined when it had no authenticated caller. */
function requestActivity(
  routes: RouteRegistry,
  req: Request & { caller?: Caller },
  res: Response,
  createdId: string | undefined,
): RequestActivity | undefined {
  const caller = req.caller;
  if (!caller) return undefined;
  const flatPath = req.url.split('?')[0];
  const found = routes.find(req.method, flatPath);
  const paramId = found?.params.id;
  const resourceId =
    typeof paramId === 'string' ? paramId : res.statusCode === 201 ? (createdId ?? null) : null;
  return {
    entityId: caller.entityId,
    livemode: caller.livemode,
    apiKeyId: caller.apiKeyId,
    method: req.method,
    path: req.originalUrl.split('?')[0],
    resourceType: found?.route.resourceType || null,
    resourceId,
    status: res.statusCode,
    requestId: (res.getHeader('Request-Id') as string | undefined) ?? null,
  };
}

/**
 * Records every mutation of every route in the activity log once its response is sent, so
 * the log never slows or fails the request it describes. The id of a created resource is
 * read from the JSON body on its way out.
 */
export function activityLogMiddleware(
  services: () => { log: ActivityLog; routes: RouteRegistry },
): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    if (!MUTATING_METHODS.has(req.method)) return next();
    let createdId: string | undefined;
    const json = res.json.bind(res);
    res.json = (body?: unknown) => {
      const id = (body as { id?: unknown } | null | undefined)?.id;
      if (typeof id === 'string') createdId = id;
      return json(body);
    };
    res.once('finish', () => {
      const { log, routes } = services();
      const entry = requestActivity(routes, req, res, createdId);
      if (entry) log.recordRequest(entry);
    });
    next();
  };
}
