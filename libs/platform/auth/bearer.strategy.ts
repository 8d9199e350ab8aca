import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { Request } from 'express';
import { Strategy } from 'passport-http-bearer';
import { PlatformError } from '../errors/domain-error';
import { Caller } from '../tenancy/request-context';
import { ApiKeyService } from './api-key.service';
import { IpAllowlist } from './ip-allowlist';
import { parseKey } from './key-format';

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

/** Resolves `Authorization: Bearer <key>` to a caller, or fails with the contract's codes. */
@Injectable()
export class BearerStrategy extends PassportStrategy(Strategy, 'bearer') {
  constructor(private readonly keys: ApiKeyService) {
    super({ passReqToCallback: true });
  }

  async validate(req: AuthenticatedRequest, token: string): Promise<Caller> {
    // passport-http-bearer also reads `access_token` from the query and body; the contract
    // takes the key from the Authorization header only (a key in a URL ends up in logs).
    if (bearerToken(req) !== token) {
      throw authError(
        'invalid_api_key',
        'Send the API key as "Authorization: Bearer <key>"; keys in the query or body are refused.',
      );
    }
    const parsed = parseKey(token);
    if (!parsed)
      throw authError(
        'invalid_api_key',
        'The API key is malformed: expected key_<mode>_ent_<code>_<random>.',
      );
    const found = await this.keys.findByToken(token);
    if (!found || found.entityCode !== parsed.entityCode || found.key.livemode !== (parsed.mode === 'live')) {
      throw authError('invalid_api_key', 'No such API key.');
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
    return {
      entityId: key.entityId,
      entityCode: found.entityCode,
      livemode: key.livemode,
      apiKeyId: key.id,
      apiKeyName: key.name,
      scopes: new Set(key.scopes),
    };
  }
}
