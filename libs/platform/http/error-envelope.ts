import { HttpException } from '@nestjs/common';
import type { Request } from 'express';
import { ERROR_CATALOG, ErrorCode } from '../errors/error-catalog';
import { DomainError, PlatformError } from '../errors/domain-error';
import { isOutageError, OUTAGE_RETRY_AFTER_SECONDS } from '../errors/outage';

/** The error envelope: one flat object, extra fields of a code at the same level. */
export interface ErrorEnvelope {
  error: string;
  code: string;
  type: string;
  hint?: string;
  param?: string;
  required?: string;
  request_id?: string;
  [extra: string]: unknown;
}

export interface RenderedError {
  status: number;
  body: ErrorEnvelope;
  /** Response headers the error calls for (`Retry-After` of an outage). */
  headers?: Record<string, string>;
  /** The cause was a backing service being unreachable (logged as a warning, not a bug). */
  outage?: boolean;
}

/**
 * The 404 of a path no route matches, with what most likely went wrong: a doubled version
 * prefix (a base URL that already ends in `/v1` joined with a `/v1/...` path), or no version
 * prefix at all.
 */
export function routeNotFound(path: string): PlatformError {
  let hint = 'No route matches this method and path.';
  if (/^\/v1\/v1(\/|$)/.test(path)) {
    hint += ` The path repeats /v1: the base URL already ends in /v1 and the path starts with it again; request ${path.slice(3)} (or set the base URL to the server's root).`;
  } else if (!/^\/v1(\/|$)/.test(path) && path !== '/') {
    hint += ` API paths start with /v1 (${'/v1' + path}).`;
  }
  return new PlatformError('not_found', { hint }).asPreHandler();
}

/** Nest's own HTTP exceptions (router, body limits) expressed as contract errors. */
function fromHttpException(exception: HttpException): DomainError {
  const status = exception.getStatus();
  const byStatus: Partial<Record<number, ErrorCode>> = {
    400: 'parameter_invalid',
    401: 'invalid_api_key',
    403: 'insufficient_scope',
    404: 'not_found',
    405: 'method_not_allowed',
    413: 'payload_too_large',
    415: 'unsupported_media_type',
    429: 'rate_limited',
    503: 'service_unavailable',
  };
  const code = byStatus[status] ?? (status >= 500 ? 'internal_error' : 'parameter_invalid');
  const hint = status === 404 ? 'No route matches this method and path.' : exception.message;
  return new PlatformError(code, { hint }).asPreHandler();
}

/** Turns anything thrown into the error envelope (docs/errors.md). */
export function renderError(
  exception: unknown,
  requestId: string | undefined,
): RenderedError & { internal?: unknown } {
  let error: DomainError;
  let internal: unknown;
  let outage = false;
  if (exception instanceof DomainError) {
    error = exception;
  } else if (exception instanceof HttpException) {
    error = fromHttpException(exception);
  } else if (exception instanceof URIError) {
    // Only input makes URI functions throw: malformed percent-encoding or a lone surrogate.
    error = new PlatformError('parameter_invalid', {
      hint: 'A value is not valid text (malformed percent-encoding or a lone UTF-16 surrogate).',
    });
  } else if (isOutageError(exception)) {
    internal = exception;
    outage = true;
    error = new PlatformError('service_unavailable', {
      hint: `A service this request needs (database or queue) is unreachable; retry after ${OUTAGE_RETRY_AFTER_SECONDS} s.`,
    });
  } else {
    internal = exception;
    error = new PlatformError('internal_error', {
      hint: 'Something went wrong on our side; retry later, and quote the request_id if it persists.',
    });
  }
  const { status, type } = ERROR_CATALOG[error.code];
  const body: ErrorEnvelope = {
    ...(error.details ?? {}),
    error: error.code,
    code: error.code,
    type,
    ...(error.hint ? { hint: error.hint } : {}),
    ...(error.param ? { param: error.param } : {}),
    ...(requestId ? { request_id: requestId } : {}),
  };
  const headers =
    error.code === 'service_unavailable' ? { 'Retry-After': String(OUTAGE_RETRY_AFTER_SECONDS) } : undefined;
  return { status, body, internal, ...(headers ? { headers } : {}), ...(outage ? { outage } : {}) };
}

/**
 * RFC 6750's challenge for a 401: `Bearer realm="api"`, plus `error="invalid_token"` when the
 * request carried a credential (an Authorization header, or a key in `access_token`).
 */
export function bearerChallenge(req: Pick<Request, 'headers' | 'query'> | undefined): string {
  const query = (req?.query ?? {}) as Record<string, unknown>;
  const sent = Boolean(req?.headers?.authorization?.trim()) || query.access_token !== undefined;
  return sent ? 'Bearer realm="api", error="invalid_token"' : 'Bearer realm="api"';
}
