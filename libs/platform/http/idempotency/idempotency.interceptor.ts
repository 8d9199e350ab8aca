import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import { from, Observable, of } from 'rxjs';
import { catchError, mergeMap } from 'rxjs/operators';
import { DomainError, PlatformError } from '../../errors/domain-error';
import { Caller } from '../../tenancy/request-context';
import { renderError } from '../error-envelope';
import { canonicalJson, sha256 } from './canonical-json';
import { IdempotencyService } from './idempotency.service';

const MUTATING = new Set(['POST', 'PATCH', 'DELETE']);
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;
/** Response headers kept with a stored outcome. */
const REPLAYED_HEADERS = ['content-type', 'location', 'etag'];

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

/**
 * API-CONTRACT.md section 5: a retry with the same Idempotency-Key gets the first outcome,
 * marked `Idempotent-Replayed: true`; the operation runs once even under concurrency.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(private readonly service: IdempotencyService) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<Request & { caller?: Caller }>();
    const res = context.switchToHttp().getResponse<Response>();
    const header = req.headers['idempotency-key'];
    if (!MUTATING.has(req.method) || header === undefined || !req.caller) return next.handle();
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
    const request = {
      entityId: req.caller.entityId,
      livemode: req.caller.livemode,
      key,
      method: req.method,
      path: req.originalUrl.split('?')[0],
      bodyHash: sha256(canonicalJson(req.body ?? {})),
    };
    return from(this.service.claim(request)).pipe(
      mergeMap((claim) => {
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
          for (const [name, value] of Object.entries(record.responseHeaders ?? {}))
            res.setHeader(name, value);
          res.setHeader('Idempotent-Replayed', 'true');
          const status = record.responseStatus ?? 200;
          return of(status >= 400 ? replayedError(record.responseBody, res) : record.responseBody);
        }
        return next.handle().pipe(
          mergeMap(async (body) => {
            const headers: Record<string, string> = {};
            for (const name of REPLAYED_HEADERS) {
              const value = res.getHeader(name);
              if (value !== undefined) headers[name] = String(value);
            }
            await this.service.complete(claim.id, res.statusCode, headers, body ?? null);
            return body;
          }),
          catchError(async (error: unknown) => {
            const preHandler = error instanceof DomainError && error.preHandler;
            const rendered = renderError(error, undefined);
            if (preHandler || rendered.status >= 500) {
              await this.service.release(claim.id);
            } else {
              const body = renderError(error, res.getHeader('Request-Id') as string | undefined).body;
              await this.service.complete(
                claim.id,
                rendered.status,
                { 'content-type': 'application/json; charset=utf-8' },
                body,
              );
            }
            throw error;
          }),
        );
      }),
    );
  }
}
