import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { DataSource } from 'typeorm';
import { MUTATING_METHODS } from '../auth/mutation-gate';
import { RouteRegistry } from '../http/route-registry';
import { newId } from '../persistence/ids';
import { Caller } from '../tenancy/request-context';

export interface ActivityEntry {
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

/** Rows written together at most this long after the first of them was recorded. */
const BATCH_WINDOW_MS = 10;
/** A batch is written at once when it reaches this size. */
const MAX_BATCH = 200;

/**
 * Writes activity rows after the response: rows recorded within a few milliseconds of each
 * other go out as one multi-row INSERT (one statement and one commit for a burst of requests
 * instead of one each); failures are logged and swallowed. Pending rows are written when the
 * module shuts down.
 */
@Injectable()
export class ActivityRecorder implements OnModuleDestroy {
  private readonly logger = new Logger('ActivityRecorder');
  private pending: { entry: ActivityEntry; written: () => void }[] = [];
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly dataSource: DataSource,
    private readonly routes: RouteRegistry,
  ) {}

  /** What a finished request did, or undefined when it had no authenticated caller. */
  describe(req: Request & { caller?: Caller }, res: Response, createdId: string | undefined): ActivityEntry | undefined {
    const caller = req.caller;
    if (!caller) return undefined;
    const flatPath = req.url.split('?')[0];
    const found = this.routes.find(req.method, flatPath);
    const paramId = found?.params.id;
    const resourceId = typeof paramId === 'string' ? paramId : res.statusCode === 201 ? (createdId ?? null) : null;
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

  /** Queues the row; resolves once its batch has been written (or failed and been logged). */
  record(entry: ActivityEntry): Promise<void> {
    return new Promise((resolve) => {
      this.pending.push({ entry, written: resolve });
      if (this.pending.length >= MAX_BATCH) void this.flush();
      else if (!this.timer) this.timer = setTimeout(() => void this.flush(), BATCH_WINDOW_MS);
    });
  }

  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return;
    const rows = batch.map((b) => b.entry);
    try {
      await this.dataSource.query(
        `INSERT INTO activity_log (id, entity_id, livemode, api_key_id, method, path, resource_type, resource_id, status, request_id)
         SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::boolean[], $4::uuid[], $5::text[], $6::text[], $7::text[], $8::text[], $9::int[], $10::text[])`,
        [
          rows.map(() => newId()), rows.map((r) => r.entityId), rows.map((r) => r.livemode), rows.map((r) => r.apiKeyId),
          rows.map((r) => r.method), rows.map((r) => r.path), rows.map((r) => r.resourceType), rows.map((r) => r.resourceId),
          rows.map((r) => r.status), rows.map((r) => r.requestId),
        ],
      );
    } catch (error) {
      this.logger.warn({ err: error, request_ids: rows.map((r) => r.requestId) }, 'activity log write failed');
    } finally {
      for (const b of batch) b.written();
    }
  }

  async onModuleDestroy(): Promise<void> {
    await this.flush();
  }
}

/**
 * Records every mutation of every route in the activity log once its response is sent, so
 * the log never slows or fails the request it describes. The id of a created resource is
 * read from the JSON body on its way out.
 */
export function activityLogMiddleware(recorder: () => ActivityRecorder): RequestHandler {
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
      const active = recorder();
      const entry = active.describe(req, res, createdId);
      if (entry) void active.record(entry);
    });
    next();
  };
}
