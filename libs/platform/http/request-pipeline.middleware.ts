import { isUtf8 } from 'node:buffer';
import { randomFillSync } from 'node:crypto';
import express, { NextFunction, Request, RequestHandler, Response } from 'express';
import { PlatformError } from '../errors/domain-error';
import { RequestContext } from '../tenancy/request-context';
import { bearerChallenge, renderError, routeNotFound } from './error-envelope';
import { exceedsDepth, inexactNumbers, tooDeep } from './json-limits';
import { describeJsonSyntaxProblem, jsonSyntaxProblem } from './json-syntax';
import { closeAfterAnswer } from './close-after-answer';

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

/**
 * Middleware run as one Express layer, in order: the router pays its per-layer matching and
 * dispatch once instead of once per middleware. An error passed to a step's `next` skips the
 * rest, as in Express.
 */
export function chainMiddleware(handlers: readonly RequestHandler[]): RequestHandler {
  if (handlers.length === 1) return handlers[0];
  return (req: Request, res: Response, next: NextFunction) => {
    let index = 0;
    const step = (error?: unknown): void => {
      if (error !== undefined && error !== null) return next(error);
      const handler = handlers[index++];
      if (!handler) return next();
      void handler(req, res, step as NextFunction);
    };
    step();
  };
}

export function sendError(res: Response, error: unknown): void {
  const rendered = renderError(error, RequestContext.requestId() ?? (res.getHeader('Request-Id') as string));
  (res as Response & { errorCode?: string }).errorCode = rendered.body.code;
  for (const [name, value] of Object.entries(rendered.headers ?? {})) res.setHeader(name, value);
  if (rendered.status === 401) res.setHeader('WWW-Authenticate', bearerChallenge(res.req));
  res.status(rendered.status).json(rendered.body);
}

/** The parser's error type of a body that is not UTF-8. */
const NOT_UTF8 = 'encoding.not_utf8';

/**
 * The 0-based offset of the first byte of `body` (the raw bytes) that begins no valid UTF-8
 * character: a stray continuation byte, a truncated sequence, an overlong form, a surrogate or a
 * code point above U+10FFFF.
 */
export function firstInvalidUtf8Byte(body: unknown): number | undefined {
  if (!Buffer.isBuffer(body)) return undefined;
  let i = 0;
  while (i < body.length) {
    const lead = body[i];
    if (lead < 0x80) {
      i++;
      continue;
    }
    const extra =
      lead >= 0xc2 && lead <= 0xdf
        ? 1
        : lead >= 0xe0 && lead <= 0xef
          ? 2
          : lead >= 0xf0 && lead <= 0xf4
            ? 3
            : 0;
    if (extra === 0 || i + extra >= body.length) return i;
    let point = lead & (0x7f >> (extra + 1));
    for (let k = 1; k <= extra; k++) {
      const next = body[i + k];
      if ((next & 0xc0) !== 0x80) return i;
      point = (point << 6) | (next & 0x3f);
    }
    const shortest = extra === 1 ? 0x80 : extra === 2 ? 0x800 : 0x10000;
    if (point < shortest || point > 0x10ffff || (point >= 0xd800 && point <= 0xdfff)) return i;
    i += extra + 1;
  }
  return undefined;
}

/** What a failure of the JSON parser is answered with. */
export function bodyError(err: unknown): PlatformError {
  const e = err as { type?: string; status?: number };
  if (e.type === 'entity.too.large' || e.status === 413) {
    return new PlatformError('payload_too_large', { hint: 'The request body exceeds 1 MiB.' });
  }
  if (e.type === NOT_UTF8) {
    const at = firstInvalidUtf8Byte((err as { body?: unknown }).body);
    return new PlatformError('invalid_json', {
      hint: `The request body is not valid UTF-8${at === undefined ? '' : ` (byte ${at} starts no valid character)`}; JSON text must be UTF-8.`,
    });
  }
  if (e.type === 'entity.parse.failed') {
    const text = (err as { body?: unknown }).body;
    const problem = typeof text === 'string' ? jsonSyntaxProblem(text) : null;
    return new PlatformError('invalid_json', {
      hint: problem
        ? `The request body is not valid JSON: ${describeJsonSyntaxProblem(problem)}.`
        : 'The request body is not valid JSON.',
    });
  }
  return new PlatformError('parameter_invalid', { hint: 'The request body could not be read.' });
}

const parseJson = express.json({
  limit: MAX_BODY_BYTES,
  strict: false,
  type: () => true,
  // JSON text is UTF-8: bytes that are not would be read as U+FFFD and stored changed, so they are
  // refused (400 invalid_json). Contract conformance: remembers number literals that parsing
  // rounds (money.validator.ts).
  verify: (req, _res, buf) => {
    if (!isUtf8(buf)) throw Object.assign(new Error('invalid UTF-8'), { type: NOT_UTF8 });
    (req as Request & { inexactNumbers?: Set<number> }).inexactNumbers = inexactNumbers(buf.toString('utf8'));
  },
});

/** After a successful parse: the nesting limit (before anything walks the body) and the rounded literals. */
function checkParsed(req: Request): void {
  if (exceedsDepth(req.body)) throw tooDeep();
  const inexact = (req as Request & { inexactNumbers?: Set<number> }).inexactNumbers;
  const state = RequestContext.state();
  if (inexact?.size && state) state.inexactNumbers = inexact;
}

/**
 * Parses a JSON body of at most 1 MiB into `req.body`; rejects with the contract error (a
 * syntax error names its line, column and position). The caller checks the declared type first
 * (request-body.ts: anything but JSON is 415); called once the caller is known, never before.
 */
export function parseJsonBody(req: Request, res: Response): Promise<void> {
  return new Promise((resolve, reject) =>
    parseJson(req, res, (err?: unknown) => {
      if (err) return reject(bodyError(err).asPreHandler());
      try {
        checkParsed(req);
        resolve();
      } catch (error) {
        reject(error);
      }
    }),
  );
}

/**
 * The last handler of the app: a path outside every route (also outside `/v1`, which Nest's
 * own not-found handler does not cover) answers 404 in the envelope, not Express's HTML page.
 */
export function notFoundMiddleware(): RequestHandler {
  return (req: Request, res: Response) => {
    // An unread body is not drained: the connection closes after the answer.
    if (!req.complete) closeAfterAnswer(req, res);
    sendError(res, routeNotFound(req.path));
  };
}
