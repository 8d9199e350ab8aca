import {
  CallHandler,
  ExecutionContext,
  Injectable,
  NestInterceptor,
  OnApplicationBootstrap,
  RequestMethod,
  Type,
} from '@nestjs/common';
import { INTERCEPTORS_METADATA, METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, ModuleRef, Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { from, lastValueFrom, Observable } from 'rxjs';
import { DomainError, PlatformError } from '../errors/domain-error';
import { Caller } from '../tenancy/request-context';
import { renderError } from './error-envelope';
import { etagMatches, etagOf, etagOfJson } from './etag';
import { RESOURCE_KEY, ResourceRegistry } from './expand/expand-registry';
import { Expander, ExpandTree } from './expand/expander';
import { canonicalJson, sha256 } from './idempotency/canonical-json';
import { GET_STATE } from './api-request';
import { CURRENT_REPRESENTATION_KEY, CurrentRepresentationLoader } from './current-representation';
import { SECRET_FIELDS_KEY } from './route';
import { IdempotencyService, IdempotentRequest } from './idempotency/idempotency.service';
import { IDEMPOTENCY_KEY_RULE, idempotencyKeyProblem } from './idempotency/idempotency-key';

/** Methods whose Idempotency-Key is honoured. */
const IDEMPOTENT_METHODS: ReadonlySet<string> = new Set(['POST', 'PATCH', 'DELETE']);
export const MAX_IDEMPOTENCY_KEY_LENGTH = IDEMPOTENCY_KEY_RULE.maxLength;
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
  /** The controller's class (its instance loads a declared current representation). */
  controller: Type;
  /** The resource the route returns (@ApiResource), for expand[] and If-Match. */
  resource: string | undefined;
  /** Top-level response fields a stored idempotent outcome keeps only sealed (@Route secretFields). */
  secretFields: readonly string[];
  /** How a PATCH or DELETE loads the representation If-Match is compared with (@CurrentRepresentation). */
  current: CurrentRepresentationLoader | undefined;
}

type PipelineRequest = Request & { caller?: Caller };

/** An object or array literal: what `res.json` serialises exactly as JSON.stringify does. */
const isPlainJson = (body: unknown): boolean => {
  if (typeof body !== 'object' || body === null) return false;
  const proto = Object.getPrototypeOf(body) as unknown;
  return proto === Object.prototype || proto === null || Array.isArray(body);
};

/** What a GET carries from the guard to its reply: its resource and checked expand[] tree. */
export interface GetState {
  resource: string | undefined;
  tree: ExpandTree | undefined;
}

type GetRequest = PipelineRequest & { [GET_STATE]?: GetState };

/** What the guard left for the reply of a GET (undefined: not a GET the guard allowed). */
export const getStateOf = (res: Response): GetState | undefined =>
  (res.req as GetRequest | undefined)?.[GET_STATE];

/** The HTTP adapter's reply (`ExpressAdapter.reply`). */
export type Reply = (res: Response, body: unknown, statusCode?: number) => unknown;

/**
 * The request pipeline of the API (idempotency, If-Match and expand[]; docs/reference/conventions.md), as plain
 * code, in two shapes:
 *
 * - a GET runs no interceptor (Nest would wrap it in rxjs chains and a ReplaySubject): the
 *   guard checks its expand[] paths once the caller is allowed (`beforeGet`), and the HTTP
 *   adapter's reply (`replyGet`) sets the weak ETag of the unexpanded representation, answers
 *   If-None-Match with 304, loads the expansions, and otherwise sends the JSON text it hashed;
 * - every other method runs this interceptor, attached to those routes only at start-up
 *   (`attachPipelineInterceptor`): idempotency (outermost: a POST/PATCH/DELETE with an
 *   Idempotency-Key claims the key; a retry gets the first outcome, marked
 *   `Idempotent-Replayed: true`; the operation runs once even under concurrency), then the
 *   expand[] paths, If-Match (412) on PATCH and DELETE, the handler, the expansion.
 */
@Injectable()
export class ApiPipelineInterceptor implements NestInterceptor, OnApplicationBootstrap {
  private readonly policies = new WeakMap<object, RoutePolicy>();
  private readonly expander: Expander;

  constructor(
    private readonly reflector: Reflector,
    private readonly registry: ResourceRegistry,
    private readonly idempotency: IdempotencyService,
    private readonly modules: ModuleRef,
    private readonly discovery: DiscoveryService,
  ) {
    this.expander = new Expander(registry);
  }

  /**
   * Refuses to start when a PATCH or DELETE route has no representation to compare If-Match with
   * (neither @CurrentRepresentation nor an @ApiResource with a loader): its If-Match would be
   * ignored and the write applied. Resources register their loaders when their modules initialise.
   */
  onApplicationBootstrap(): void {
    const unchecked = conditionalRoutesWithoutRepresentation(this.discovery, this.registry);
    if (unchecked.length > 0)
      throw new Error(
        `PATCH and DELETE routes whose If-Match cannot be checked (declare @CurrentRepresentation, or an @ApiResource with a loader): ${unchecked.join(', ')}`,
      );
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
        secretFields: this.reflector.get<string[] | undefined>(SECRET_FIELDS_KEY, handler) ?? [],
        current: this.reflector.get<CurrentRepresentationLoader | undefined>(
          CURRENT_REPRESENTATION_KEY,
          handler,
        ),
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
    const idempotent = this.idempotentRequest(req);
    if (idempotent) return from(this.idempotent(idempotent, req, res, policy, next));
    return from(this.other(req, policy, next));
  }

  /**
   * A GET, once the guard allowed it: checks its expand[] paths (400 before the handler) and
   * marks it for `replyGet`. `resource` is the route's @ApiResource.
   */
  beforeGet(req: Request, resource: string | undefined): void {
    const raw = (req.query as Record<string, unknown> | undefined)?.expand;
    (req as GetRequest)[GET_STATE] = {
      resource,
      tree: raw === undefined ? undefined : this.expander.parse(raw, resource),
    };
  }

  /**
   * The reply of a GET that `beforeGet` marked (`stateOf`); `send` is the adapter's own reply.
   * ETag / If-None-Match, then expansion; without expand[] the JSON text hashed for the ETag is
   * the body sent.
   */
  replyGet(
    state: GetState,
    res: Response,
    body: unknown,
    statusCode: number | undefined,
    send: Reply,
  ): unknown {
    const { resource, tree } = state;
    if (body === undefined || res.statusCode !== 200) {
      if (tree && resource)
        return this.expander.expand(body, resource, tree).then(() => send(res, body, statusCode));
      return send(res, body, statusCode);
    }
    const json = JSON.stringify(body);
    const etag = etagOfJson(json);
    res.setHeader('ETag', etag);
    const ifNoneMatch = res.req.headers['if-none-match'];
    if (ifNoneMatch && etagMatches(ifNoneMatch, etag)) return send(res, undefined, 304);
    if (tree && resource)
      return this.expander.expand(body, resource, tree).then(() => send(res, body, statusCode));
    if (!isPlainJson(body)) return send(res, body, statusCode);
    // The text just hashed is what `res.json(body)` would write: send it as it is (the adapter
    // hands a string to `res.send`, which keeps this Content-Type and adds the charset, as
    // res.json does).
    if (!res.getHeader('Content-Type')) res.setHeader('Content-Type', 'application/json');
    return send(res, json, statusCode);
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

  /**
   * PATCH and DELETE with If-Match: 412 when the resource changed since it was read. The current
   * representation is the route's declared one (@CurrentRepresentation, what its GET answers), else
   * its @ApiResource loaded by the last path parameter (`:id`, or `:address_id` in
   * /accounts/:id/addresses/:address_id). A record that does not exist is the handler's 404.
   */
  private async checkIfMatch(req: PipelineRequest, policy: RoutePolicy): Promise<void> {
    if (req.method !== 'PATCH' && req.method !== 'DELETE') return;
    const ifMatch = req.headers['if-match'];
    if (!ifMatch) return;
    const current = await this.currentRepresentation(req, policy);
    if (current !== undefined && !etagMatches(ifMatch, etagOf(current))) {
      throw new PlatformError('precondition_failed', {
        hint: 'The resource changed since you read it (If-Match does not match its current ETag); fetch it again.',
      }).asPreHandler();
    }
  }

  /** The representation an If-Match of this request is compared with (undefined: no such record). */
  private async currentRepresentation(req: PipelineRequest, policy: RoutePolicy): Promise<unknown> {
    const params = (req.params ?? {}) as Record<string, string>;
    if (policy.current) {
      try {
        return await policy.current(this.modules.get(policy.controller, { strict: false }), params);
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        if (error.code === 'not_found') return undefined;
        // Answered before the handler ran: an idempotent retry runs the operation again.
        throw error.asPreHandler();
      }
    }
    const id = Object.values(params).at(-1);
    if (!id || !policy.resource) return undefined;
    return this.registry.loadOne(policy.resource, id);
  }

  /** The idempotent request a mutation with an Idempotency-Key describes (undefined: none). */
  private idempotentRequest(req: PipelineRequest): IdempotentRequest | undefined {
    const header = req.headers['idempotency-key'];
    if (!IDEMPOTENT_METHODS.has(req.method) || header === undefined || !req.caller) return undefined;
    const key = Array.isArray(header) ? header[0] : header;
    const problem = idempotencyKeyProblem(key);
    if (problem === 'too_long') {
      throw new PlatformError('idempotency_key_too_long', {
        param: 'Idempotency-Key',
        hint: `Idempotency keys are at most ${MAX_IDEMPOTENCY_KEY_LENGTH} characters.`,
      }).asPreHandler();
    }
    if (problem === 'empty') {
      throw new PlatformError('parameter_invalid', {
        param: 'Idempotency-Key',
        hint: 'The Idempotency-Key header is empty (it needs at least one character other than white space).',
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
      const body = this.idempotency.replayBody(record);
      return status >= 400 ? replayedError(body, res) : body;
    }
    try {
      const body = await this.other(req, policy, next);
      const headers: Record<string, string> = {};
      for (const name of REPLAYED_HEADERS) {
        const value = res.getHeader(name);
        if (value !== undefined) headers[name] = String(value);
      }
      await this.idempotency.complete(claim.id, res.statusCode, headers, body ?? null, policy.secretFields);
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

/** Every route handler of the discovered controllers: its controller, name, function and method. */
function* routeHandlers(
  discovery: DiscoveryService,
): Generator<{ controller: Type; name: string; handler: object; method: RequestMethod | undefined }> {
  for (const wrapper of discovery.getControllers()) {
    const controller = wrapper.metatype as Type | undefined;
    const prototype = (controller as { prototype?: object } | undefined)?.prototype;
    if (!controller || !prototype) continue;
    for (
      let proto: object | null = prototype;
      proto && proto !== Object.prototype;
      proto = Object.getPrototypeOf(proto)
    ) {
      for (const name of Object.getOwnPropertyNames(proto)) {
        if (name === 'constructor') continue;
        const handler = Object.getOwnPropertyDescriptor(proto, name)?.value as unknown;
        if (typeof handler !== 'function' || Reflect.getMetadata(PATH_METADATA, handler) === undefined)
          continue;
        const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
        yield { controller, name, handler, method };
      }
    }
  }
}

/**
 * The PATCH and DELETE routes (`Controller.handler`) whose If-Match has nothing to be compared
 * with: no @CurrentRepresentation, and no @ApiResource (on the handler or its controller) whose
 * resource `registry` can load.
 */
export function conditionalRoutesWithoutRepresentation(
  discovery: DiscoveryService,
  registry: Pick<ResourceRegistry, 'get'>,
): string[] {
  const unchecked: string[] = [];
  for (const { controller, name, handler, method } of routeHandlers(discovery)) {
    if (method !== RequestMethod.PATCH && method !== RequestMethod.DELETE) continue;
    if (Reflect.getMetadata(CURRENT_REPRESENTATION_KEY, handler) !== undefined) continue;
    const resource = (Reflect.getMetadata(RESOURCE_KEY, handler) ??
      Reflect.getMetadata(RESOURCE_KEY, controller)) as string | undefined;
    if (resource && registry.get(resource)?.load) continue;
    unchecked.push(`${controller.name}.${name}`);
  }
  return unchecked;
}

/**
 * Puts `interceptor` first on every route that is not a GET (before `app.init()` builds the
 * routes; Nest reads a route's interceptors once, then). GET routes get none: their part of the
 * pipeline is the guard's and the reply's. An interceptor placed by an earlier app of the same
 * process (tests) is replaced, not stacked.
 */
export function attachPipelineInterceptor(
  discovery: DiscoveryService,
  interceptor: ApiPipelineInterceptor,
): void {
  for (const { handler, method } of routeHandlers(discovery)) {
    if (method === RequestMethod.GET) continue;
    const own = ((Reflect.getMetadata(INTERCEPTORS_METADATA, handler) as unknown[] | undefined) ?? []).filter(
      (i) => !(i instanceof ApiPipelineInterceptor),
    );
    Reflect.defineMetadata(INTERCEPTORS_METADATA, [interceptor, ...own], handler);
  }
}
