import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import ipaddr from 'ipaddr.js';
import { AppConfig } from '../config/app-config';
import { DomainError, PlatformError } from '../errors/domain-error';
import { ApiKeyCache } from './api-key-cache';
import { hashKey, parseKey } from './key-format';
import { KeyChecksum } from './key-checksum';
import { Clock } from '../time/clock';
import { RateLimitStore, WINDOW_MS } from './rate-limiter';

/** Errors that count as a failed authentication. */
const FAILURES = new Set(['invalid_api_key', 'api_key_revoked']);

/** A counter id for the shared store (a UUID, as the PostgreSQL store's column wants). */
const counterId = (subject: string): string => {
  const h = createHash('sha256').update(`auth-failures:${subject}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
};

/** The client as throttled: its IPv4 address, or the /64 of its IPv6 address (one host's usual share). */
export function clientSubject(address: string | undefined): string {
  if (!address || !ipaddr.isValid(address)) return `ip:${address ?? 'unknown'}`;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress())
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  if (parsed.kind() === 'ipv4') return `ip:${parsed.toString()}`;
  const bytes = parsed.toByteArray().slice(0, 8);
  return `ip6:${Buffer.from(bytes).toString('hex')}/64`;
}

const bearer = (req: Request): string | undefined =>
  /^Bearer (\S+)$/i.exec(req.headers.authorization ?? '')?.[1];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Failed authentications are limited per client address and per entity code (parsed from the
 * key), in fixed one-minute windows counted in the key rate limiter's shared store, so every
 * API instance adds to the same totals. Once a total is over its budget, this instance answers
 * 429 `rate_limited` with `Retry-After` before any key lookup until the window ends (another
 * instance learns it at its next failure from that client), except for keys no guess can be:
 * keys this instance knows to be valid (in the key cache) and keys whose checksum is right
 * (key-checksum.ts), which are looked up as usual. So a flood of wrong keys from an address
 * that many clients share (a NAT, a load balancer) slows the flood, and never refuses a valid
 * key of another client. Keys issued before checksums are the exception: from an address over
 * budget they are refused unless cached (rotate them to get a checksum). Every failure is
 * answered no sooner than AUTH_FAILURE_MIN_MS after the request began, so a cached revoked key
 * and an unknown key take the same time.
 */
@Injectable()
export class AuthFailureLimiter {
  /** Counter id → end of the window in which it went over budget. */
  private readonly blocked = new Map<string, number>();

  constructor(
    private readonly store: RateLimitStore,
    private readonly config: AppConfig,
    private readonly keys: ApiKeyCache,
    private readonly checksum: KeyChecksum,
    private readonly clock: Clock,
  ) {}

  private subjects(req: Request): { ip: string; entity: string | undefined } {
    const token = bearer(req);
    const entityCode = token ? parseKey(token)?.entityCode : undefined;
    return {
      ip: counterId(clientSubject(req.ip ?? req.socket.remoteAddress)),
      entity: entityCode ? counterId(`entity:${entityCode}`) : undefined,
    };
  }

  private blockedFor(counter: string | undefined, now: number): number {
    if (!counter) return 0;
    const until = this.blocked.get(counter);
    if (until === undefined) return 0;
    if (until <= now) {
      this.blocked.delete(counter);
      return 0;
    }
    return until - now;
  }

  private limited(ms: number): DomainError {
    const seconds = Math.max(1, Math.ceil(ms / 1000));
    return new PlatformError('rate_limited', {
      hint: `Too many failed authentications from this client; retry after ${seconds} s.`,
    }).asPreHandler();
  }

  /**
   * Throws 429 (and sets Retry-After) when the client or the key's entity code is over budget and
   * the key is neither one this instance knows to be valid nor one with a right checksum: no
   * lookup is made for it.
   */
  assertAllowed(req: Request): void {
    if (this.blocked.size === 0) return;
    const now = this.clock.now();
    const { ip, entity } = this.subjects(req);
    const wait = Math.max(this.blockedFor(ip, now), this.blockedFor(entity, now));
    if (wait === 0) return;
    const token = bearer(req);
    if (token && (this.checksum.vouchedFor(token) || this.keys.get(hashKey(token)))) return;
    req.res?.setHeader('Retry-After', String(Math.max(1, Math.ceil(wait / 1000))));
    throw this.limited(wait);
  }

  /**
   * Counts a failed authentication and returns what to answer: the error itself, or 429 once
   * the client or the entity is over budget; never before AUTH_FAILURE_MIN_MS since `startedAt`.
   */
  async failed(req: Request, error: unknown, startedAt: number): Promise<unknown> {
    if (!(error instanceof DomainError) || !FAILURES.has(error.code)) return error;
    const { ip, entity } = this.subjects(req);
    const now = this.clock.now();
    const window = Math.floor(now / WINDOW_MS);
    const windowEnd = (window + 1) * WINDOW_MS;
    const [byIp, byEntity] = await Promise.all([
      this.store.add(ip, window, 1),
      entity ? this.store.add(entity, window, 1) : Promise.resolve(0),
    ]);
    let answer: unknown = error;
    if (byIp > this.config.AUTH_FAILURES_PER_MINUTE) this.blocked.set(ip, windowEnd);
    if (entity && byEntity > this.config.AUTH_FAILURES_PER_MINUTE_PER_ENTITY)
      this.blocked.set(entity, windowEnd);
    if (this.blocked.has(ip) || (entity && this.blocked.has(entity))) {
      req.res?.setHeader('Retry-After', String(Math.max(1, Math.ceil((windowEnd - now) / 1000))));
      answer = this.limited(windowEnd - now);
    }
    if (this.blocked.size > 10_000) this.blocked.clear();
    const remaining = this.config.AUTH_FAILURE_MIN_MS - (performance.now() - startedAt);
    if (remaining > 0) await sleep(remaining);
    return answer;
  }
}
