import { LoggerService } from '@nestjs/common';
import type { Request, Response } from 'express';
import pino, { DestinationStream, Logger } from 'pino';
import pinoHttp from 'pino-http';
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

/** One structured line per request: request id, method, path, status, duration, key id. */
export function httpLogger(logger: Logger) {
  return pinoHttp({
    logger,
    genReqId: (req) => (req as Request & { id?: string }).id ?? '',
    customProps: (req) => ({ api_key_id: (req as Request & { caller?: Caller }).caller?.apiKeyId }),
    customSuccessMessage: (req, res) => `${req.method} ${(req as Request).originalUrl} ${res.statusCode}`,
    customErrorMessage: (req, res) => `${req.method} ${(req as Request).originalUrl} ${res.statusCode}`,
    customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : 'info'),
    serializers: {
      req: (req: Request & { raw?: Request }) => ({
        id: req.id,
        method: req.method,
        path: (req.raw ?? req).originalUrl?.split('?')[0],
      }),
      res: (res: Response) => ({
        status: res.statusCode,
        error_code: (res as Response & { errorCode?: string }).errorCode,
      }),
    },
    wrapSerializers: false,
    quietReqLogger: true,
  });
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
