import { SetMetadata } from '@nestjs/common';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { PlatformError } from '../errors/domain-error';
import { closeAfterAnswer } from './close-after-answer';
import { LinePieces, LineTooLongError } from './line-pieces';
import { MAX_BODY_BYTES, parseJsonBody, sendError } from './request-pipeline.middleware';

/**
 * Request bodies are read only once the caller is known: the middleware below reads nothing
 * (it refuses a declared length above every route's limit at once), the API guard reads the
 * body as its last step, after the key, the rate limit and the scopes have passed
 * (`readRequestBody`), and a route that streams its body (`@StreamsBody`) reads it itself,
 * a chunk at a time (`bodyChunks`).
 */

/** The largest body any route accepts (the NDJSON upload of bulk imports). */
export const MAX_STREAMED_BODY_BYTES = 64 * 1024 * 1024;

export const BODY_STREAM_KEY = 'erp:body-stream';

export interface BodyStreamPolicy {
  /** Matches the content types the route streams itself (any other body must be JSON). */
  contentType: RegExp;
  /** Bytes the route accepts. */
  limitBytes: number;
  /** The media types it streams, named by the 415 of a body of another type. */
  mediaTypes: readonly string[];
}

/** The route reads bodies of these media types itself, as a stream, up to `limitBytes`. */
export const StreamsBody = (contentType: RegExp, limitBytes: number, mediaTypes: readonly string[]) =>
  SetMetadata(BODY_STREAM_KEY, { contentType, limitBytes, mediaTypes } satisfies BodyStreamPolicy);

const NDJSON = /ndjson/i;

/** `application/json` or a JSON-structured type (`application/merge-patch+json`), any parameters. */
const JSON_MEDIA_TYPE = /^application\/(?:[\w.-]+\+)?json$/;

/**
 * The 415 of a body whose Content-Type is not one the route reads: it names the type received
 * (or its absence) and the types accepted, JSON first.
 */
function unsupportedMediaType(type: string, stream: BodyStreamPolicy | undefined): PlatformError {
  const accepted = ['application/json', ...(stream?.mediaTypes ?? [])];
  const list =
    accepted.length === 1
      ? accepted[0]
      : `${accepted.slice(0, -1).join(', ')} or ${accepted[accepted.length - 1]}`;
  const received = type.trim() ? `Content-Type ${type.trim()}` : 'no Content-Type';
  let hint = `This route takes a body of type ${list}; it received ${received}.`;
  if (!stream && NDJSON.test(type)) hint += ' NDJSON is accepted by bulk imports only.';
  else hint += ' Send JSON with the header Content-Type: application/json.';
  return new PlatformError('unsupported_media_type', { hint }).asPreHandler();
}

export const mib = (bytes: number) => `${Math.round((bytes / (1024 * 1024)) * 100) / 100} MiB`;

/** The declared Content-Length, or undefined (chunked or none). */
export function declaredLength(req: Request): number | undefined {
  const raw = req.headers['content-length'];
  if (raw === undefined) return undefined;
  const n = Number(raw);
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

/** True when the request announces a body (a length above 0, or chunked transfer). */
export function announcesBody(req: Request): boolean {
  const length = declaredLength(req);
  return (length !== undefined && length > 0) || req.headers['transfer-encoding'] !== undefined;
}

/**
 * An answer sent before the request's body was read closes the connection after it: the
 * unread body is never waited for or drained (a client declaring 50 MB and sending nothing
 * does not keep the socket).
 */
export function closeIfBodyUnread(req: Request, res: Response): void {
  const consumed = (req as Request & { _body?: boolean })._body === true || req.readableEnded;
  if (!consumed && !req.complete && announcesBody(req) && !res.headersSent) closeAfterAnswer(req, res);
}

const tooLarge = (limit: number) =>
  new PlatformError('payload_too_large', {
    hint: `The request body exceeds ${mib(limit)}.`,
  }).asPreHandler();

const stalled = (idleMs: number) =>
  new PlatformError('parameter_invalid', {
    param: 'body',
    hint: `The request body stalled: no data arrived for ${idleMs / 1000} s.`,
  }).asPreHandler();

/**
 * First in the pipeline: a declared Content-Length above every route's limit is answered 413
 * at once, without a key and without reading a byte; the connection is closed after it.
 */
export function bodyPreflightMiddleware(): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const length = declaredLength(req);
    if (length !== undefined && length > MAX_STREAMED_BODY_BYTES) {
      closeAfterAnswer(req, res);
      return sendError(res, tooLarge(MAX_STREAMED_BODY_BYTES));
    }
    next();
  };
}

/**
 * Reads the body of an authenticated (or public) request before its handler runs: a body of a
 * content type the route streams is left to the route (after its length is checked against the
 * route's limit); any other body must be declared JSON (`application/json`, or `+json`), else
 * 415 naming the accepted types; JSON is at most 1 MiB, parsed with the shared parser. A body that stops arriving for `idleMs` is refused and its connection closed.
 */
export async function readRequestBody(
  req: Request,
  res: Response,
  stream: BodyStreamPolicy | undefined,
  idleMs: number,
): Promise<void> {
  if (!announcesBody(req)) return;
  const type = String(req.headers['content-type'] ?? '');
  const length = declaredLength(req);
  if (stream && stream.contentType.test(type)) {
    if (length !== undefined && length > stream.limitBytes) throw tooLarge(stream.limitBytes);
    return;
  }
  // Every other body is JSON, declared as such: a form, text/plain or an undeclared body is 415
  // (a JSON body sent as text/plain is not taken on trust).
  if (!JSON_MEDIA_TYPE.test(type.split(';')[0].trim().toLowerCase()))
    throw unsupportedMediaType(type, stream);
  if (length !== undefined && length > MAX_BODY_BYTES) throw tooLarge(MAX_BODY_BYTES);
  let timer: NodeJS.Timeout | undefined;
  let stall: (error: unknown) => void = () => undefined;
  const idle = new Promise<never>((_, reject) => (stall = reject));
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => stall(stalled(idleMs)), idleMs);
    timer.unref();
  };
  req.on('data', arm);
  arm();
  try {
    await Promise.race([parseJsonBody(req, res), idle]);
  } finally {
    clearTimeout(timer);
    req.off('data', arm);
  }
}

/**
 * A line of an upload (one NDJSON record, or one physical line of a CSV) is at most 1 MiB,
 * the limit of a JSON body: a record that could not be sent to its REST route is not read.
 */
export const MAX_UPLOAD_LINE_BYTES = MAX_BODY_BYTES;

/** The answer to an upload line over `limitBytes`: 413, naming the line. */
export const lineTooLong = (line: number, limitBytes: number) =>
  new PlatformError('payload_too_large', {
    param: 'body',
    hint: `Line ${line} of the upload is longer than ${mib(limitBytes)}; a line (one record) is at most ${mib(limitBytes)}.`,
    details: { line },
  }).asPreHandler();

/**
 * A streamed body as text pieces of about `chunkBytes`, each made of whole lines (the last one
 * excepted), so the caller holds one piece at a time and never the whole body; the body is
 * scanned once, in linear time whatever its line lengths (LinePieces). Stops with 413 past
 * `limitBytes` or at a line longer than `lineLimitBytes`, and with 400 when no data arrives for
 * `idleMs`.
 */
export async function* bodyChunks(
  req: Request,
  options: { limitBytes: number; idleMs: number; chunkBytes: number; lineLimitBytes?: number },
): AsyncGenerator<string> {
  const lineLimit = options.lineLimitBytes ?? MAX_UPLOAD_LINE_BYTES;
  const pieces = new LinePieces(options.chunkBytes, lineLimit);
  let received = 0;
  const iterator = req[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  for (;;) {
    let timer: NodeJS.Timeout | undefined;
    const idle = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(stalled(options.idleMs)), options.idleMs);
      timer.unref();
    });
    let next: IteratorResult<Buffer>;
    try {
      next = await Promise.race([iterator.next(), idle]);
    } finally {
      clearTimeout(timer);
    }
    if (next.done) break;
    received += next.value.length;
    if (received > options.limitBytes) throw tooLarge(options.limitBytes);
    let piece: string | undefined;
    try {
      piece = pieces.push(next.value);
    } catch (error) {
      if (error instanceof LineTooLongError) throw lineTooLong(error.line, error.limitBytes);
      throw error;
    }
    if (piece !== undefined) yield piece;
  }
  const rest = pieces.end();
  if (rest !== '') yield rest;
}
