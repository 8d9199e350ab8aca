import { randomFillSync } from 'node:crypto';
import express, { NextFunction, Request, RequestHandler, Response } from 'express';
import { PlatformError } from '../errors/domain-error';
import { RequestContext } from '../tenancy/request-context';
import { bearerChallenge, renderError } from './error-envelope';
import { exceedsDepth, inexactNumbers, tooDeep } from './json-limits';

export const MAX_BODY_BYTES = 1024 * 1024;

const ID_BYTES = 12;
const POOL_IDS = 256;
const idPool = Buffer.alloc(ID_BYTES * POOL_IDS);
let idOffset = idPool.length;

/**
 * `req_` + 12 random bytes in base64url. The bytes come from the same CSPRNG as randomBytes(),
 * drawn 256 ids at a time: one system call per request cost more than the rest of the id.
 */
export function newRequestId(): string {
  if (idOffset >= idPool.length) {
    randomFillSync(idPool);
    idOffset = 0;
  }
  const id = `req_${idPool.toString('base64url', idOffset, idOffset + ID_BYTES)}`;
  idOffset += ID_BYTES;
  return id;
}

/** Opens the request's async context and stamps `Request-Id` on every response. */
export function requestContextMiddleware(): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const requestId = newRequestId();
    res.setHeader('Request-Id', requestId);
    (req as Request & { id: string }).id = requestId;
    RequestContext.run({ requestId }, () => next());
  };
}

export function sendError(res: Response, error: unknown): void {
  const rendered = renderError(error, RequestContext.requestId() ?? (res.getHeader('Request-Id') as string));
  (res as Response & { errorCode?: string }).errorCode = rendered.body.code;
  if (rendered.status === 401) res.setHeader('WWW-Authenticate', bearerChallenge(res.req));
  res.status(rendered.status).json(rendered.body);
}

const isNdjson = (req: Request) => String(req.headers['content-type'] ?? '').includes('ndjson');

/**
 * JSON bodies only, at most 1 MiB. A body is parsed as JSON whatever its declared type, so
 * a mislabeled body fails clearly with `invalid_json`; parse failures answer in the envelope.
 */
export function jsonBodyMiddleware(): RequestHandler {
  const parse = express.json({
    limit: MAX_BODY_BYTES,
    strict: false,
    type: (req) => !isNdjson(req as Request),
    // Contract conformance: remembers number literals that parsing rounds (money.validator.ts).
    verify: (req, _res, buf) => {
      (req as Request & { inexactNumbers?: Set<number> }).inexactNumbers = inexactNumbers(
        buf.toString('utf8'),
      );
    },
  });
  const raw = express.text({ limit: MAX_BODY_BYTES * 64, type: (req) => isNdjson(req as Request) });
  return (req, res, next) => {
    const parser = isNdjson(req) ? raw : parse;
    parser(req, res, (err?: unknown) => {
      // Contract conformance: the nesting limit, before anything walks the body (json-limits.ts).
      if (!err && exceedsDepth(req.body)) return sendError(res, tooDeep());
      const inexact = (req as Request & { inexactNumbers?: Set<number> }).inexactNumbers;
      const state = RequestContext.state();
      if (!err && inexact?.size && state) state.inexactNumbers = inexact;
      if (!err) return next();
      const e = err as { type?: string; status?: number };
      if (e.type === 'entity.too.large' || e.status === 413) {
        return sendError(
          res,
          new PlatformError('payload_too_large', { hint: 'The request body exceeds 1 MiB.' }),
        );
      }
      if (e.type === 'entity.parse.failed') {
        return sendError(
          res,
          new PlatformError('invalid_json', { hint: 'The request body is not valid JSON.' }),
        );
      }
      return sendError(
        res,
        new PlatformError('parameter_invalid', { hint: 'The request body could not be read.' }),
      );
    });
  };
}

/**
 * The last handler of the app: a path outside every route (also outside `/v1`, which Nest's
 * own not-found handler does not cover) answers 404 in the envelope, not Express's HTML page.
 */
export function notFoundMiddleware(): RequestHandler {
  return (_req: Request, res: Response) => {
    sendError(res, new PlatformError('not_found', { hint: 'No route matches this method and path.' }));
  };
}
