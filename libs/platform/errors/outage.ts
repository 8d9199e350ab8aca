/**
 * Errors that mean a backing service (PostgreSQL, Redis or the queue) is unreachable, as
 * opposed to a bug: they are answered 503 `service_unavailable` with `Retry-After`, never 500.
 * Pure: recognises the errors by their codes, names and messages, looking through wrappers
 * (TypeORM's `driverError`, `cause`, AggregateError).
 */

/** Seconds a client is told to wait before retrying during an outage. */
export const OUTAGE_RETRY_AFTER_SECONDS = 5;

/** Socket-level failures (Node) of a connection to a backing service. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENOTCONN',
]);

/**
 * PostgreSQL SQLSTATEs of a lost or refused connection: class 08 (connection exception),
 * 57P01-57P03 (admin/crash shutdown, cannot connect now), 53300 (too many connections).
 */
const PG_STATES = new Set(['57P01', '57P02', '57P03', '53300']);

/** Messages of node-postgres, TypeORM and ioredis for a connection that is gone. */
const MESSAGES = [
  /connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /client has encountered a connection error/i,
  /connection is closed/i,
  /cannot use a pool after calling end/i,
  /the database system is (starting up|shutting down|in recovery mode)/i,
  /is not currently accepting connections/i,
  /terminating connection due to administrator command/i,
  /reached the max retries per request limit/i,
  /stream isn't writeable/i,
  // ioredis, for a command Redis did not answer within commandTimeout.
  /command timed out/i,
  /connection (was )?lost/i,
  // TypeORM, after it released a transaction's runner whose connection failed.
  /query runner already released/i,
  /connection provided by a query runner was already released/i,
];

const NAMES = new Set([
  'MaxRetriesPerRequestError',
  'ConnectionNotFoundError',
  'CannotConnectAlreadyConnectedError',
  // The transaction's connection was lost and released before the transaction's next statement.
  'QueryRunnerProviderAlreadyReleasedError',
]);

function isOwnOutage(error: object): boolean {
  const e = error as { code?: unknown; name?: unknown; message?: unknown };
  const code = typeof e.code === 'string' ? e.code : undefined;
  if (code && (SOCKET_CODES.has(code) || PG_STATES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
  if (typeof e.name === 'string' && NAMES.has(e.name)) return true;
  return typeof e.message === 'string' && MESSAGES.some((m) => m.test(e.message as string));
}

/** True when `error`, or an error it wraps, is a lost or refused connection to a backing service. */
export function isOutageError(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 5) return false;
  if (isOwnOutage(error)) return true;
  const e = error as { driverError?: unknown; cause?: unknown; errors?: unknown };
  if (isOutageError(e.driverError, depth + 1) || isOutageError(e.cause, depth + 1)) return true;
  return Array.isArray(e.errors) && e.errors.length > 0 && e.errors.every((x) => isOutageError(x, depth + 1));
}
