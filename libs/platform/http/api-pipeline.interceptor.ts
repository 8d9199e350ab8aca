import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { from, lastValueFrom, Observable } from 'rxjs';
import { DomainError, PlatformError } from '../errors/domain-error';
import { Caller } from '../tenancy/request-context';
import { renderError } from './error-envelope';
import { etagMatches, etagOf, etagOfJson } from './etag';
import { RESOURCE_KEY, ResourceRegistry } from './expand/expand-registry';
import { Expander, ExpandTree } from './expand/expander';
import { canonicalJson, sha256 } from './idempotency/canonical-json';
import { IdempotencyService, IdempotentRequest } from './idempotency/idempotency.service';

/** Methods whose Idempotency-Key is honoured. */
const IDEMPOTENT_METHODS: ReadonlySet<string> = new Set(['POST', 'PATCH', 'DELETE']);
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;
/** Response headers kept with a stored outcome. */
const REPLAYED_HEADERS = ['content-type', 'location', 'etag'];
const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * A stored error envelope names the request that produced it; its replay answers as this
 * request (`request_id` = this response's `Request-Id`), and `Original-Request` names the first.
 */
function replayedError(body: unknown, res: Response): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body) || !('request_id' in body))
    return body;
  const { request_id: original, ...rest } = body as Record<string, unknown>;
  const current = res.getHeader('Request-Id');
  if (typeof original === 'string') res.setHeader('Original-Request', original);
  return current === undefined ? rest : { ...rest, request_id: String(current) };
}

/** What the pipeline needs to know about a route, read once from its decorators. */
interface RoutePolicy {
  controller: object;
  /** The resource the route returns (@ApiResource), for expand[] and If-Match. */
  resource: string | undefined;
}

type PipelineRequest = Request & { caller?: Caller };

/** An object or array literal: what `res.json` serialises exactly as JSON.stringify does. */
const isPlainJson = (body: unknown): boolean => {
  if (typeof body !== 'object' || body === null) return false;
  const proto = Object.getPrototypeOf(body) as unknown;
  return proto === Object.prototype || proto === null || Array.isArray(body);
};

/**
 * The request pipeline around every handler, in one interceptor (API-CONTRACT.md sections 5
 * and 6, and expand[]), as plain async code:
 *
 * - idempotency (outermost): a POST/PATCH/DELETE with an Idempotency-Key claims the key; a retry
 *   gets the first outcome, marked `Idempotent-Replayed: true`; the operation runs once even
 *   under concurrency;
 * - expand[]: paths are checked before the handler, objects loaded after it;
 * - ETag: a GET 200 carries the weak ETag of the unexpanded representation and honours
 *   If-None-Match (304); PATCH and DELETE on a resource honour If-Match (412).
 *
 * A GET never looks at Idempotency-Key and, without expand[], serialises its body once: the
 * JSON text that is hashed for the ETag is the text sent.
 */
@Injectable()
export class ApiPipelineInterceptor implements NestInterceptor {
  private readonly policies = new WeakMap<object, RoutePolicy>();
  private readonly expander: Expander;

  constructor(
    private readonly reflector: Reflector,
    private readonly registry: ResourceRegistry,
    private readonly idempotency: IdempotencyService,
  ) {
    this.expander = new Expander(registry);
  }

  private policyOf(context: ExecutionContext): RoutePolicy {
    const handler = context.getHandler();
    let policy = this.policies.get(handler);
    if (!policy || policy.controller !== context.getClass()) {
      policy = {
        controller: context.getClass(),
        resource: this.reflector.getAllAndOverride<string | undefined>(RESOURCE_KEY, [
          handler,
          context.getClass(),
        ]),
      };
      this.policies.set(handler, policy);
    }
    return policy;
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const http = context.switchToHttp();
    const req = http.getRequest<PipelineRequest>();
    const res = http.getResponse<Response>();
    const policy = this.policyOf(context);
    if (req.method === 'GET') return from(this.get(req, res, policy, next));
    const idempotent = this.idempotentRequest(req);
    if (idempotent) return from(this.idempotent(idempotent, req, res, policy, next));
    return from(this.other(req, policy, next));
  }

  /** A GET: expand[] checked, handler, ETag / If-None-Match, then expansion. */
  private async get(
    req: PipelineRequest,
    res: Response,
    policy: RoutePolicy,
    next: CallHandler,
  ): Promise<unknown> {
    const tree = this.expandTree(req, policy);
    const body = await lastValueFrom(next.handle(), { defaultValue: undefined });
    if (body === undefined || res.statusCode !== 200) {
      if (tree && policy.resource) await this.expander.expand(body, policy.resource, tree);
      return body;
    }
    const json = JSON.stringify(body);
    const etag = etagOfJson(json);
    res.setHeader('ETag', etag);
    const ifNoneMatch = req.headers['if-none-match'];
    if (ifNoneMatch && etagMatches(ifNoneMatch, etag)) {
      res.status(304);
      return undefined;
    }
    if (tree && policy.resource) {
      await this.expander.expand(body, policy.resource, tree);
      return body;
    }
    if (!isPlainJson(body)) return body;
    // The text just hashed is what `res.json(body)` would write: send it as it is (Nest hands a
    // string to `res.send`, which keeps this Content-Type and adds the charset, as res.json does).
    if (!res.getHeader('Content-Type')) res.setHeader('Content-Type', 'application/json');
    return json;
  }

  /** Any other method (without an idempotency key): expand[] checked, If-Match, handler, expansion. */
  private async other(req: PipelineRequest, policy: RoutePolicy, next: CallHandler): Promise<unknown> {
    const tree = this.expandTree(req, policy);
    await this.checkIfMatch(req, policy);
    const body = await lastValueFrom(next.handle(), { defaultValue: undefined });
    if (tree && policy.resource) await this.expander.expand(body, policy.resource, tree);
    return body;
  }

  private expandTree(req: PipelineRequest, policy: RoutePolicy): ExpandTree | undefined {
    const raw = (req.query as Record<string, unknown> | undefined)?.expand;
    return raw === undefined ? undefined : this.expander.parse(raw, policy.resource);
  }

  /** PATCH and DELETE with If-Match: 412 when the resource changed since it was read. */
  private async checkIfMatch(req: PipelineRequest, policy: RoutePolicy): Promise<void> {
    if (req.method !== 'PATCH' && req.method !== 'DELETE') return;
    const ifMatch = req.headers['if-match'];
    // The record is named by the last path parameter: `:id`, or `:address_id` in /accounts/:id/addresses/:address_id.
    const id = Object.values(req.params ?? {}).at(-1) as string | undefined;
    if (!ifMatch || !id || !policy.resource) return;
    const current = await this.registry.loadOne(policy.resource, id);
    if (current && !etagMatches(ifMatch, etagOf(current))) {
      throw new PlatformError('precondition_failed', {
        hint: 'The resource changed since you read it (If-Match does not match its current ETag); fetch it again.',
      }).asPreHandler();
    }
  }

  /** The idempotent request a mutation with an Idempotency-Key describes (undefined: none). */
  private idempotentRequest(req: PipelineRequest): IdempotentRequest | undefined {
    const header = req.headers['idempotency-key'];
    if (!IDEMPOTENT_METHODS.has(req.method) || header === undefined || !req.caller) return undefined;
    const key = Array.isArray(header) ? header[0] : header;
    if (key.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
      throw new PlatformError('idempotency_key_too_long', {
        param: 'Idempotency-Key',
        hint: `Idempotency keys are at most ${MAX_IDEMPOTENCY_KEY_LENGTH} characters.`,
      }).asPreHandler();
    }
    if (key.length === 0) {
      throw new PlatformError('parameter_invalid', {
        param: 'Idempotency-Key',
        hint: 'The Idempotency-Key header is empty.',
      }).asPreHandler();
    }
    return {
      entityId: req.caller.entityId,
      livemode: req.caller.livemode,
      key,
      method: req.method,
      path: req.originalUrl.split('?')[0],
      bodyHash: sha256(canonicalJson(req.body ?? {})),
    };
  }

  /** Claims the key, then runs the mutation once and stores its outcome (or replays the first). */
  private async idempotent(
    request: IdempotentRequest,
    req: PipelineRequest,
    res: Response,
    policy: RoutePolicy,
    next: CallHandler,
  ): Promise<unknown> {
    const claim = await this.idempotency.claim(request);
    if (claim.kind === 'existing') {
      const { record } = claim;
      if (
        record.method !== request.method ||
        record.path !== request.path ||
        record.bodyHash !== request.bodyHash
      ) {
        throw new PlatformError('idempotency_key_reused', {
          param: 'Idempotency-Key',
          hint: `This key was used for ${record.method} ${record.path} with a different body; use a new key for a new request.`,
        }).asPreHandler();
      }
      if (record.status === 'in_progress') {
        throw new PlatformError('idempotency_key_in_use', {
          hint: 'The first request with this Idempotency-Key is still running; retry shortly.',
        }).asPreHandler();
      }
      res.status(record.responseStatus ?? 200);
      for (const [name, value] of Object.entries(record.responseHeaders ?? {})) res.setHeader(name, value);
      res.setHeader('Idempotent-Replayed', 'true');
      const status = record.responseStatus ?? 200;
      return status >= 400 ? replayedError(record.responseBody, res) : record.responseBody;
    }
    try {
      const body = await this.other(req, policy, next);
      const headers: Record<string, string> = {};
      for (const name of REPLAYED_HEADERS) {
        const value = res.getHeader(name);
        if (value !== undefined) headers[name] = String(value);
      }
      await this.idempotency.complete(claim.id, res.statusCode, headers, body ?? null);
      return body;
    } catch (error) {
      const preHandler = error instanceof DomainError && error.preHandler;
      const rendered = renderError(error, undefined);
      if (preHandler || rendered.status >= 500) {
        await this.idempotency.release(claim.id);
      } else {
        const errorBody = renderError(error, res.getHeader('Request-Id') as string | undefined).body;
        await this.idempotency.complete(claim.id, rendered.status, { 'content-type': JSON_TYPE }, errorBody);
      }
      throw error;
    }
  }
}
