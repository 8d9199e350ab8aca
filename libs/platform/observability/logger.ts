import { LoggerService } from '@nestjs/common';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import pino, { DestinationStream, Logger } from 'pino';
import type { Caller } from '../tenancy/request-context';

/** Header and field paths never written to logs. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-freeze-token"]',
  'secret',
  'signing_secret',
  '*.secret',
  '*.signing_secret',
];

export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = { level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' }, base: undefined };
  return destination ? pino(options, destination) : pino(options);
}

type LoggedRequest = Request & { id?: string; caller?: Caller };
type LoggedResponse = Response & { errorCode?: string };

/**
 * One structured line per request: request id, method, path, status, duration, key id; level
 * `error` for 5xx answers, `info` otherwise. The line is written by one logger made at start-up
 * (no child logger per request) without the redaction pass: its fields are fixed and carry no
 * header or body, so there is nothing to redact. One `close` listener per request.
 */
export function httpLogger(logger: Logger): RequestHandler {
  const lines = logger.child({}, { redact: [] });
  return (req: Request, res: Response, next: NextFunction) => {
    const started = Date.now();
    res.once('close', () => {
      const request = req as LoggedRequest;
      const response = res as LoggedResponse;
      const status = res.statusCode;
      const aborted = !res.writableFinished;
      const level = aborted || status >= 500 ? 'error' : 'info';
      if (!lines.isLevelEnabled(level)) return;
      const url = req.originalUrl;
      const query = url.indexOf('?');
      lines[level](
        {
          reqId: request.id,
          api_key_id: request.caller?.apiKeyId,
          req: { id: request.id, method: req.method, path: query === -1 ? url : url.slice(0, query) },
          res: { status, error_code: response.errorCode },
          responseTime: Date.now() - started,
        },
        aborted ? `${req.method} ${url} aborted` : `${req.method} ${url} ${status}`,
      );
    });
    next();
  };
}

/** Nest's own messages through the same pino logger. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}
  log(message: unknown, context?: string) {
    this.logger.info({ context }, String(message));
  }
  error(message: unknown, trace?: string, context?: string) {
    if (message && typeof message === 'object')
      this.logger.error({ context, ...(message as object) }, 'error');
    else this.logger.error({ context, trace }, String(message));
  }
  warn(message: unknown, context?: string) {
    this.logger.warn({ context }, String(message));
  }
  debug(message: unknown, context?: string) {
    this.logger.debug({ context }, String(message));
  }
  verbose(message: unknown, context?: string) {
    this.logger.trace({ context }, String(message));
  }
}
