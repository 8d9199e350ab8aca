import { createHash } from 'node:crypto';
import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { from, Observable } from 'rxjs';
import { map, mergeMap } from 'rxjs/operators';
import { PlatformError } from '../errors/domain-error';
import { RESOURCE_KEY, ResourceRegistry } from './expand/expand-registry';

/** Weak ETag of a representation: it changes whenever any field (updated_at included) changes. */
export const etagOf = (body: unknown) =>
  `W/"${createHash('sha1').update(JSON.stringify(body)).digest('base64url')}"`;

const matches = (header: string, etag: string) =>
  header
    .split(',')
    .map((t) => t.trim())
    .some((t) => t === '*' || t === etag || t.replace(/^W\//, '') === etag.replace(/^W\//, ''));

/**
 * API-CONTRACT.md section 6. GET answers carry an ETag of the unexpanded representation and
 * honour If-None-Match (304); PATCH and DELETE on a resource honour If-Match (412).
 */
@Injectable()
export class EtagInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly registry: ResourceRegistry,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const req = context.switchToHttp().getRequest<Request>();
    const res = context.switchToHttp().getResponse<Response>();
    if (req.method === 'GET') {
      return next.handle().pipe(
        map((body: unknown) => {
          if (body === undefined || res.statusCode !== 200) return body;
          const etag = etagOf(body);
          res.setHeader('ETag', etag);
          const ifNoneMatch = req.headers['if-none-match'];
          if (ifNoneMatch && matches(ifNoneMatch, etag)) {
            res.status(304);
            return undefined;
          }
          return body;
        }),
      );
    }
    const ifMatch = req.headers['if-match'];
    // The record is named by the last path parameter: `:id`, or `:address_id` in /accounts/:id/addresses/:address_id.
    const id = Object.values(req.params ?? {}).at(-1) as string | undefined;
    if ((req.method === 'PATCH' || req.method === 'DELETE') && ifMatch && id) {
      const resource = this.reflector.getAllAndOverride<string | undefined>(RESOURCE_KEY, [
        context.getHandler(),
        context.getClass(),
      ]);
      if (!resource) return next.handle();
      return from(this.registry.loadOne(resource, id)).pipe(
        mergeMap((current) => {
          if (current && !matches(ifMatch, etagOf(current))) {
            throw new PlatformError('precondition_failed', {
              hint: 'The resource changed since you read it (If-Match does not match its current ETag); fetch it again.',
            }).asPreHandler();
          }
          return next.handle();
        }),
      );
    }
    return next.handle();
  }
}
