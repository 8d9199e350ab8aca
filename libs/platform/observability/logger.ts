import { LoggerService } from '@nestjs/common';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { format } from 'node:util';
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
  'credentials',
  '*.credentials',
];

/**
 * The process logger. `format` `auto` writes JSON lines unless stdout is a terminal, where each
 * line is shortened for a reader (see prettyLine); an explicit destination always gets JSON.
 */
export function createLogger(
  level: string,
  destination?: DestinationStream,
  format: 'auto' | 'json' | 'pretty' = 'json',
): Logger {
  const options = { level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' }, base: undefined };
  if (destination) return pino(options, destination);
  const pretty = format === 'pretty' || (format === 'auto' && process.stdout.isTTY === true);
  return pretty ? pino(options, prettyStream(process.stdout)) : pino(options);
}

const LEVEL_NAMES: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO ',
  40: 'WARN ',
  50: 'ERROR',
  60: 'FATAL',
};
const FRAME_FIELDS = new Set(['level', 'time', 'msg', 'pid', 'hostname', 'err']);

/**
 * One JSON log line as `12:04:05 INFO  message key=value ...`, with an error's stack on the lines
 * below. For people reading a terminal; machines read the JSON form.
 */
export function prettyLine(json: string): string {
  let line: Record<string, unknown>;
  try {
    line = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json;
  }
  const time = new Date(typeof line.time === 'number' ? line.time : Date.now()).toISOString().slice(11, 19);
  const level = LEVEL_NAMES[line.level as number] ?? String(line.level);
  const fields = Object.entries(line)
    .filter(([key, value]) => !FRAME_FIELDS.has(key) && value !== undefined)
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`);
  const err = line.err as { stack?: string; message?: string } | undefined;
  const stack = err ? `\n    ${(err.stack ?? err.message ?? '').split('\n').join('\n    ')}` : '';
  return `${time} ${level} ${String(line.msg ?? '')}${fields.length ? `  ${fields.join(' ')}` : ''}${stack}\n`;
}

function prettyStream(out: NodeJS.WritableStream): DestinationStream {
  return { write: (chunk: string) => void out.write(prettyLine(chunk.trimEnd())) };
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

// --- One JSON object per log line (Nest's messages, errors and stray console output) ---

type Level = 'info' | 'error' | 'warn' | 'debug' | 'trace';

/**
 * A Nest log call as one pino line. Nest passes `(message, ...params)` with the logger's context
 * last; `error()` may pass a stack before it. An Error is serialised under `err`; an object is
 * merged into the line (its `err` serialised) with the first string parameter as the message,
 * so nothing is ever written as `[object Object]` or as a multi-line stack outside the JSON.
 */
export function nestLogLine(
  message: unknown,
  params: unknown[],
): { fields: Record<string, unknown>; msg: string } {
  const rest = [...params];
  const fields: Record<string, unknown> = {};
  if (rest.length > 0 && typeof rest[rest.length - 1] === 'string') fields.context = rest.pop();
  else if (rest.length > 0 && rest[rest.length - 1] === undefined) rest.pop();
  const text = rest.find((p): p is string => typeof p === 'string');
  const error = rest.find((p): p is Error => p instanceof Error);
  let msg: string;
  if (message instanceof Error) {
    fields.err = message;
    msg = text ?? message.message;
  } else if (message !== null && typeof message === 'object') {
    Object.assign(fields, message);
    const own =
      (message as { msg?: unknown; message?: unknown }).msg ?? (message as { message?: unknown }).message;
    msg = text ?? (typeof own === 'string' ? own : 'log');
    delete fields.msg;
  } else {
    msg = String(message);
    // error(message, stack): the stack stays a field of the JSON line.
    if (text !== undefined) fields.stack = text;
  }
  if (error && fields.err === undefined) fields.err = error;
  return { fields, msg };
}

/** Nest's start-up chatter (one line per module and per route): logged at `debug`, not `info`. */
const START_UP_CONTEXTS = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer']);

/** Nest's own messages through the same pino logger. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}
  private write(level: Level, message: unknown, params: unknown[]) {
    const { fields, msg } = nestLogLine(message, params);
    const quiet = level === 'info' && START_UP_CONTEXTS.has(fields.context as string);
    this.logger[quiet ? 'debug' : level](fields, msg);
  }
  log(message: unknown, ...params: unknown[]) {
    this.write('info', message, params);
  }
  error(message: unknown, ...params: unknown[]) {
    this.write('error', message, params);
  }
  warn(message: unknown, ...params: unknown[]) {
    this.write('warn', message, params);
  }
  debug(message: unknown, ...params: unknown[]) {
    this.write('debug', message, params);
  }
  verbose(message: unknown, ...params: unknown[]) {
    this.write('trace', message, params);
  }
}

/**
 * Sends what libraries print with `console.*` (ioredis' "Unhandled error event", driver
 * warnings) and uncaught errors through `logger`, one JSON line each (errors under `err`).
 * For the apps' entry points; returns the function that restores the console.
 */
export function routeConsoleToLogger(logger: Logger): () => void {
  const levels = { log: 'info', info: 'info', warn: 'warn', error: 'error', debug: 'debug' } as const;
  const target = console as unknown as Record<keyof typeof levels, (...args: unknown[]) => void>;
  const saved = { ...target };
  const route =
    (level: Level) =>
    (...args: unknown[]) => {
      const err = args.find((a): a is Error => a instanceof Error);
      const msg = format(...args.map((a) => (a instanceof Error ? a.message : a)));
      logger[level]({ source: 'console', ...(err ? { err } : {}) }, msg);
    };
  for (const [method, level] of Object.entries(levels)) target[method as keyof typeof levels] = route(level);
  return () => Object.assign(target, saved);
}

/** Uncaught errors as one fatal JSON line before the process exits. */
export function logUncaughtErrors(logger: Logger): void {
  process.on('uncaughtException', (err) => {
    logger.fatal({ err }, 'uncaught exception');
    process.exit(1);
  });
  process.on('unhandledRejection', (reason) => {
    logger.error({ err: reason }, 'unhandled rejection');
  });
}
