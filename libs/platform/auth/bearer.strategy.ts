import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import passport from 'passport';
import { Strategy } from 'passport-http-bearer';
import { PlatformError } from '../errors/domain-error';
import { Caller } from '../tenancy/request-context';
import { ApiKeyService, AuthenticatedKey } from './api-key.service';
import { IpAllowlist } from './ip-allowlist';
import { ParsedKey, parseKey, redactKey } from './key-format';

export interface AuthenticatedRequest extends Request {
  /** Set on requests that arrived through the sandbox listener. */
  sandbox?: boolean;
  /** Entity id of an entity-prefixed alias path, checked against the key's entity. */
  aliasEntityId?: string;
  caller?: Caller;
  rateLimitPerMinute?: number | null;
}

const authError = (code: 'invalid_api_key' | 'api_key_revoked', hint: string) =>
  new PlatformError(code, { hint }).asPreHandler();

/** Compiled allowlists, keyed by the list's text: keys rarely change theirs. */
const allowlists = new Map<string, IpAllowlist>();
function allowlistOf(entries: string[]): IpAllowlist {
  const cacheKey = entries.join('\n');
  let list = allowlists.get(cacheKey);
  if (!list) {
    if (allowlists.size > 1000) allowlists.clear();
    list = new IpAllowlist(entries);
    allowlists.set(cacheKey, list);
  }
  return list;
}

const bearerToken = (req: Request): string | undefined =>
  /^Bearer (\S+)$/i.exec(req.headers.authorization ?? '')?.[1];

type Verified = (error: unknown, caller?: Caller) => void;

/**
 * Resolves `Authorization: Bearer <key>` to a caller, or fails with the contract's codes:
 * passport-http-bearer's strategy, registered with passport as `bearer` (the guard runs it
 * through `passport.authenticate`). Its verify callback answers at once when the key cache knows
 * the token, so a request with a known key is authenticated without a promise; only a key
 * missing from the cache waits for its row.
 */
@Injectable()
export class BearerStrategy {
  /** The caller of each cached key, made once per key record (keys are replaced, never changed). */
  private readonly callers = new WeakMap<AuthenticatedKey, Caller>();

  constructor(private readonly keys: ApiKeyService) {
    passport.use(
      'bearer',
      new Strategy({ passReqToCallback: true }, (req: Request, token: string, verified: Verified) =>
        this.verify(req as AuthenticatedRequest, token, verified),
      ),
    );
  }

  private verify(req: AuthenticatedRequest, token: string, verified: Verified): void {
    let found: ReturnType<ApiKeyService['lookup']>;
    let parsed: ParsedKey | null;
    try {
      // passport-http-bearer also reads `access_token` from the query and body; the contract
      // takes the key from the Authorization header only (a key in a URL ends up in logs).
      if (bearerToken(req) !== token) {
        throw authError(
          'invalid_api_key',
          'Send the API key as "Authorization: Bearer <key>"; keys in the query or body are refused.',
        );
      }
      parsed = parseKey(token);
      if (!parsed)
        throw authError(
          'invalid_api_key',
          'The API key is malformed: expected key_<mode>_ent_<code>_<random>.',
        );
      found = this.keys.lookup(token);
    } catch (error) {
      return verified(error);
    }
    if (found instanceof Promise) {
      found.then(
        (key) => this.settle(req, parsed!, key, verified),
        (error: unknown) => verified(error),
      );
      return;
    }
    this.settle(req, parsed!, found, verified);
  }

  /** Hands passport the caller of `found`, or the contract's error (outside the try: once). */
  private settle(
    req: AuthenticatedRequest,
    parsed: ParsedKey,
    found: AuthenticatedKey | null,
    verified: Verified,
  ): void {
    let caller: Caller;
    try {
      caller = this.validate(req, parsed, found);
    } catch (error) {
      return verified(error);
    }
    verified(null, caller);
  }

  private validate(req: AuthenticatedRequest, parsed: ParsedKey, found: AuthenticatedKey | null): Caller {
    if (!found || found.entityCode !== parsed.entityCode || found.key.livemode !== (parsed.mode === 'live')) {
      throw authError('invalid_api_key', `No such API key: ${redactKey(bearerToken(req) ?? '')}.`);
    }
    const { key } = found;
    if (key.revokedAt)
      throw authError('api_key_revoked', 'This API key was revoked or rotated; use its replacement.');
    if (key.expiresAt && key.expiresAt.getTime() <= Date.now()) {
      throw authError('invalid_api_key', `This API key expired at ${key.expiresAt.toISOString()}.`);
    }
    if (req.sandbox && key.livemode) {
      throw authError(
        'invalid_api_key',
        'The sandbox server accepts test keys only (key_test_...); use the main server for live keys.',
      );
    }
    if (
      key.ipAllowlist.length > 0 &&
      !allowlistOf(key.ipAllowlist).allows(req.ip ?? req.socket.remoteAddress)
    ) {
      throw new PlatformError('ip_not_allowed', {
        hint: `Requests with this key must come from its IP allowlist (${key.ipAllowlist.join(', ')}); ${req.ip ?? 'the caller'} is not on it.`,
      }).asPreHandler();
    }
    req.rateLimitPerMinute = key.rateLimitPerMinute;
    let caller = this.callers.get(found);
    if (!caller) {
      caller = Object.freeze({
        entityId: key.entityId,
        entityCode: found.entityCode,
        livemode: key.livemode,
        apiKeyId: key.id,
        apiKeyName: key.name,
        scopes: new Set(key.scopes),
      });
      this.callers.set(found, caller);
    }
    return caller;
  }
}
