import { ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import type { Response } from 'express';
import { AppConfig } from '../config/app-config';
import { PlatformError } from '../errors/domain-error';
import { Caller, RequestContext } from '../tenancy/request-context';
import { AuthenticatedRequest } from './bearer.strategy';
import { PUBLIC_KEY, SCOPES_KEY } from './decorators';
import { GATE_EXEMPT_KEY, MutationGates, MUTATING_METHODS } from './mutation-gate';
import { RateLimiter } from './rate-limiter';
import { AuthFailureLimiter } from './auth-failure-limiter';
import { BODY_STREAM_KEY, BodyStreamPolicy, readRequestBody } from '../http/request-body';
import { alternativesOf, missingScopes } from './scopes';

interface RoutePolicy {
  controller: object;
  isPublic: boolean;
  required: string[] | undefined;
  gateExempt: boolean;
  bodyStream: BodyStreamPolicy | undefined;
}

/**
 * The one global guard: authenticates the bearer key, enforces entity isolation on
 * entity-prefixed paths, spends the key's rate budget, checks the route's scopes and runs
 * the mutation gates (the entity freeze: 423 `entity_frozen`) on every POST/PATCH/PUT/DELETE,
 * and only then reads the request body.
 * A route with neither @RequireScopes() nor @Public() is denied.
 */
@Injectable()
export class ApiGuard extends AuthGuard('bearer') {
  constructor(
    private readonly reflector: Reflector,
    private readonly rateLimiter: RateLimiter,
    private readonly config: AppConfig,
    private readonly gates: MutationGates,
    private readonly authFailures: AuthFailureLimiter,
  ) {
    super();
  }

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
      };
      this.policies.set(handler, policy);
    }
    return policy;
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const policy = this.policyOf(context);
    if (policy.isPublic) return this.readBody(context, policy);
    const { required } = policy;

    const req = context.switchToHttp().getRequest<AuthenticatedRequest>();
    // Failed authentications are throttled per client and entity code (auth-failure-limiter.ts).
    const authStartedAt = performance.now();
    this.authFailures.assertAllowed(req);
    try {
      await super.canActivate(context);
    } catch (error) {
      throw await this.authFailures.failed(req, error, authStartedAt);
    }
    const res = context.switchToHttp().getResponse<Response>();
    const caller = req.user as Caller;
    req.caller = caller;
    RequestContext.setCaller(caller);

    const pathEntity = (req.params?.entity_id as string | undefined) ?? req.aliasEntityId;
    if (pathEntity !== undefined && pathEntity !== caller.entityId) {
      throw new PlatformError('entity_isolation_violation', {
        hint: 'The entity id in the path is not the entity this API key was issued for.',
      }).asPreHandler();
    }

    const decision = await this.rateLimiter.consume(
      caller.apiKeyId,
      req.rateLimitPerMinute ?? this.config.RATE_LIMIT_PER_MINUTE,
    );
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
    if (MUTATING_METHODS.has(req.method) && !policy.gateExempt) {
      await this.gates.check(req, caller);
    }
    return this.readBody(context, policy);
  }

  /** The body is read only now, once the caller is known and allowed (see request-body.ts). */
  private async readBody(context: ExecutionContext, policy: RoutePolicy): Promise<true> {
    const http = context.switchToHttp();
    await readRequestBody(
      http.getRequest(),
      http.getResponse(),
      policy.bodyStream,
      this.config.HTTP_BODY_IDLE_TIMEOUT_MS,
    );
    return true;
  }

  override handleRequest<TUser>(err: unknown, user: TUser | false): TUser {
    if (err) throw err;
    if (!user) {
      throw new PlatformError('invalid_api_key', {
        hint: 'Send the API key as "Authorization: Bearer <key>".',
      }).asPreHandler();
    }
    return user;
  }
}
