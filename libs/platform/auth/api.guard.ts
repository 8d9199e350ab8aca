import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import passport from 'passport';
import { AppConfig } from '../config/app-config';
import { PlatformError } from '../errors/domain-error';
import { Caller, RequestContext } from '../tenancy/request-context';
import { AuthenticatedRequest } from './bearer.strategy';
import { PUBLIC_KEY, SCOPES_KEY } from './decorators';
import { GATE_EXEMPT_KEY, MutationGates, MUTATING_METHODS } from './mutation-gate';
import { RateLimitDecision, RateLimiter } from './rate-limiter';
import { AuthFailureLimiter } from './auth-failure-limiter';
import { announcesBody, BODY_STREAM_KEY, BodyStreamPolicy, readRequestBody } from '../http/request-body';
import { alternativesOf, missingScopes } from './scopes';
import { DescribedQuery, RETIRED_QUERY_KEY } from '../http/described-query';
import { ApiPipelineInterceptor } from '../http/api-pipeline.interceptor';
import { RESOURCE_KEY } from '../http/expand/expand-registry';
import { ENQUEUES_KEY, QueueAvailability } from '../queue/queue-availability';
import { eventCoverage } from '../events/event-coverage';

interface RoutePolicy {
  controller: object;
  isPublic: boolean;
  required: string[] | undefined;
  gateExempt: boolean;
  bodyStream: BodyStreamPolicy | undefined;
  /** The resource a GET returns (@ApiResource), for expand[]. */
  resource: string | undefined;
  /** The operation queues a job (@EnqueuesJobs): refused while the queue store is unreachable. */
  enqueues: boolean;
  /** Undescribed query parameters the handler answers itself (@RetiredQuery). */
  retiredQuery: ReadonlySet<string> | undefined;
  /** The product route its events come from, while a test run records event coverage (else undefined). */
  origin: string | undefined;
}

/**
 * passport's middleware for the bearer strategy (bearer.strategy.ts), made once: a failed
 * authentication reaches `next` as passport's AuthenticationError, a strategy error as itself,
 * and a success leaves the caller in `req.user`. No session, no auth-info transform.
 */
const authenticateBearer = passport.authenticate('bearer', {
  session: false,
  failWithError: true,
  authInfo: false,
}) as (req: Request, res: Response, next: (error?: unknown) => void) => void;

const invalidKey = () =>
  new PlatformError('invalid_api_key', {
    hint: 'Send the API key as "Authorization: Bearer <key>".',
  }).asPreHandler();

/** How passport's answer is turned into the contract's: undefined when `req.user` is the caller. */
function authOutcome(req: AuthenticatedRequest, res: Response, error: unknown): unknown {
  if (error === undefined || error === null) return req.user ? undefined : invalidKey();
  if ((error as { name?: unknown }).name === 'AuthenticationError') {
    // passport answers a missing or malformed header itself (status, challenge): the
    // contract's envelope and challenge are the exception filter's.
    res.removeHeader('WWW-Authenticate');
    return invalidKey();
  }
  return error;
}

const PENDING = Symbol('pending');

/**
 * Runs the bearer strategy through passport. The strategy answers at once when the key cache
 * knows the key (bearer.strategy.ts): then this returns undefined (authenticated) or the error,
 * without a promise; otherwise a promise of the same.
 */
function authenticate(req: AuthenticatedRequest, res: Response): unknown {
  let outcome: unknown = PENDING;
  let settle: ((value: unknown) => void) | undefined;
  authenticateBearer(req, res, (error?: unknown) => {
    outcome = authOutcome(req, res, error);
    settle?.(outcome);
  });
  if (outcome !== PENDING) return outcome;
  return new Promise((resolve) => (settle = resolve));
}

/**
 * The one global guard: authenticates the bearer key (passport, passport-http-bearer), enforces
 * entity isolation on entity-prefixed paths, spends the key's rate budget, checks the route's
 * scopes and runs the mutation gates (the entity freeze: 423 `entity_frozen`) on every
 * POST/PATCH/PUT/DELETE, and only then reads the request body.
 * A route with neither @RequireScopes() nor @Public() is denied.
 */
@Injectable()
export class ApiGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly rateLimiter: RateLimiter,
    private readonly config: AppConfig,
    private readonly gates: MutationGates,
    private readonly authFailures: AuthFailureLimiter,
    private readonly pipeline: ApiPipelineInterceptor,
    private readonly queues: QueueAvailability,
    private readonly describedQuery: DescribedQuery,
  ) {}

  /** Each handler's policy, read once from its decorators (metadata does not change after boot). */
  private readonly policies = new WeakMap<object, RoutePolicy>();

  private policyOf(context: ExecutionContext): RoutePolicy {
    const handler = context.getHandler();
    let policy = this.policies.get(handler);
    if (!policy || policy.controller !== context.getClass()) {
      const targets = [handler, context.getClass()];
      policy = {
        controller: context.getClass(),
        isPublic: Boolean(this.reflector.getAllAndOverride<boolean>(PUBLIC_KEY, targets)),
        required: this.reflector.getAllAndOverride<string[] | undefined>(SCOPES_KEY, targets),
        gateExempt: Boolean(this.reflector.getAllAndOverride<boolean>(GATE_EXEMPT_KEY, targets)),
        bodyStream: this.reflector.get<BodyStreamPolicy | undefined>(BODY_STREAM_KEY, handler),
        resource: this.reflector.getAllAndOverride<string | undefined>(RESOURCE_KEY, targets),
        enqueues: Boolean(this.reflector.get<boolean>(ENQUEUES_KEY, handler)),
        retiredQuery: this.reflector.get<ReadonlySet<string> | undefined>(RETIRED_QUERY_KEY, handler),
        origin: eventCoverage.routeOrigin(context.getClass(), handler),
      };
      this.policies.set(handler, policy);
    }
    return policy;
  }

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const policy = this.policyOf(context);
    const http = context.switchToHttp();
    const req = http.getRequest<AuthenticatedRequest>();
    const res = http.getResponse<Response>();
    if (policy.origin !== undefined) eventCoverage.enterRoute(policy.origin);
    if (policy.isPublic) return this.readBody(req, res, policy);
    return this.authorize(req, res, policy);
  }

  /**
   * Authentication, isolation, rate limit, scopes, mutation gates: synchronous to the end when
   * nothing needs waiting for (a cached key, a local rate-limit decision, a GET), a promise
   * otherwise.
   */
  private authorize(
    req: AuthenticatedRequest,
    res: Response,
    policy: RoutePolicy,
  ): boolean | Promise<boolean> {
    // Failed authentications are throttled per client and entity code (auth-failure-limiter.ts).
    const authStartedAt = performance.now();
    this.authFailures.assertAllowed(req);
    const outcome = authenticate(req, res);
    if (outcome instanceof Promise) {
      return outcome.then((error) => this.authenticated(req, res, policy, error, authStartedAt));
    }
    return this.authenticated(req, res, policy, outcome, authStartedAt);
  }

  private authenticated(
    req: AuthenticatedRequest,
    res: Response,
    policy: RoutePolicy,
    error: unknown,
    authStartedAt: number,
  ): boolean | Promise<boolean> {
    if (error !== undefined) {
      return this.authFailures.failed(req, error, authStartedAt).then((answer) => {
        throw answer;
      });
    }
    const caller = req.user as Caller;
    req.caller = caller;
    RequestContext.setCaller(caller);

    const pathEntity = (req.params?.entity_id as string | undefined) ?? req.aliasEntityId;
    if (pathEntity !== undefined && pathEntity !== caller.entityId) {
      throw new PlatformError('entity_isolation_violation', {
        hint: 'The entity id in the path is not the entity this API key was issued for.',
      }).asPreHandler();
    }

    const pending = this.rateLimiter.consume(
      caller.apiKeyId,
      req.rateLimitPerMinute ?? this.config.RATE_LIMIT_PER_MINUTE,
    );
    // Far from the limit the decision is local and synchronous (rate-limiter.ts).
    if (pending instanceof Promise) {
      return pending.then((decision) => this.allowed(req, res, policy, caller, decision));
    }
    return this.allowed(req, res, policy, caller, pending);
  }

  private allowed(
    req: AuthenticatedRequest,
    res: Response,
    policy: RoutePolicy,
    caller: Caller,
    decision: RateLimitDecision,
  ): boolean | Promise<boolean> {
    const { required } = policy;
    res.setHeader('RateLimit-Limit', String(decision.limit));
    res.setHeader('RateLimit-Remaining', String(decision.remaining));
    res.setHeader('RateLimit-Reset', String(decision.resetSeconds));
    if (!decision.allowed) {
      res.setHeader('Retry-After', String(decision.resetSeconds));
      throw new PlatformError('rate_limited', {
        hint: `This key allows ${decision.limit} requests per minute; retry after ${decision.resetSeconds} s.`,
      }).asPreHandler();
    }

    if (!required || required.length === 0) {
      throw new PlatformError('insufficient_scope', {
        hint: 'This route declares no scope policy and is denied by default.',
        details: { required: 'unavailable' },
      }).asPreHandler();
    }
    const missing = missingScopes(caller.scopes, required);
    if (missing.length > 0) {
      // `required` names scopes; of alternatives it names the first (the route's primary scope).
      throw new PlatformError('insufficient_scope', {
        hint: `This operation needs the scope${required.length > 1 ? 's' : ''} ${required.map((r) => alternativesOf(r).join(' or ')).join(' and ')}.`,
        details: { required: missing.map((r) => alternativesOf(r)[0]).join(' ') },
      }).asPreHandler();
    }
    if (policy.enqueues && !this.queues.reachable) {
      throw new PlatformError('service_unavailable', {
        hint: 'The job queue is unreachable, and this operation queues work: nothing was done; retry shortly.',
      }).asPreHandler();
    }
    if (MUTATING_METHODS.has(req.method) && !policy.gateExempt) {
      return this.gates.check(req, caller).then(() => this.readBody(req, res, policy));
    }
    return this.readBody(req, res, policy);
  }

  /**
   * The query's parameters must be ones the operation takes (DescribedQuery). A GET's (and a
   * HEAD's: Express serves it with the GET route) expand[] paths are checked now
   * (api-pipeline.interceptor.ts); the body is read only now, once the caller is known and
   * allowed (see request-body.ts).
   */
  private readBody(req: Request, res: Response, policy: RoutePolicy): true | Promise<true> {
    this.describedQuery.check(req, policy.retiredQuery);
    if (req.method === 'GET' || req.method === 'HEAD') this.pipeline.beforeGet(req, policy.resource);
    if (!announcesBody(req)) return true;
    return readRequestBody(req, res, policy.bodyStream, this.config.HTTP_BODY_IDLE_TIMEOUT_MS).then(
      () => true,
    );
  }
}
