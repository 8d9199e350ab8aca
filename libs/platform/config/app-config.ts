import { plainToInstance, Transform } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  validateSync,
} from 'class-validator';
import { MinChars } from '../http/text-length';

import { isIP } from 'node:net';
import { DEVELOPMENT_SECRETS_KEY, parseSecretsKey } from '../crypto/secret-box';

const toBool = ({ value }: { value: unknown }) =>
  value === undefined || value === ''
    ? undefined
    : ['1', 'true', 'yes', 'on'].includes(String(value).toLowerCase());
const toInt = ({ value }: { value: unknown }) =>
  value === undefined || value === '' ? undefined : Number(value);

/** Typed configuration, read from the environment and validated once at start-up. */
export class AppConfig {
  /** PostgreSQL connection string; unset means an embedded server is started. */
  @IsOptional() @IsString() DATABASE_URL?: string;
  /** Redis connection string for BullMQ; unset means BullMQ's PostgreSQL backend. */
  @IsOptional() @IsString() REDIS_URL?: string;
  @Transform(toInt) @IsInt() @Min(0) @Max(65535) PORT = 3000;
  /** Connections of the app's main PostgreSQL pool. */
  @Transform(toInt) @IsInt() @Min(1) @Max(500) DB_POOL_MAX = 10;
  /** Connections of each BullMQ queue's PostgreSQL pool (PostgreSQL backend only). */
  @Transform(toInt) @IsInt() @Min(1) @Max(100) QUEUE_DB_POOL_MAX = 3;
  @Transform(toInt) @IsInt() @Min(0) @Max(65535) SANDBOX_PORT = 3001;
  @IsString() HOST = '127.0.0.1';
  /**
   * The proxies whose X-Forwarded-For is believed: comma-separated addresses, CIDR ranges and the
   * names loopback, linklocal and uniquelocal (or `true`: every hop, only on a closed network; or a
   * hop count). The client address of a request (per-address failure budgets, IP allowlists,
   * logs) is then the last address before the first untrusted hop. Unset: X-Forwarded-For is
   * ignored and the client is the connection's peer.
   */
  @IsOptional() @IsString() TRUST_PROXY?: string;
  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']) LOG_LEVEL = 'info';
  /** `json`: one JSON object per line; `pretty`: one short readable line; `auto`: pretty on a terminal. */
  @IsIn(['auto', 'json', 'pretty']) LOG_FORMAT: 'auto' | 'json' | 'pretty' = 'auto';
  /** Directory of the embedded PostgreSQL data when DATABASE_URL is unset. */
  @IsString() EMBEDDED_PG_DIR = '.data/postgres';
  @Transform(toInt) @IsInt() @Min(1024) @Max(65535) EMBEDDED_PG_PORT = 54329;
  /** Default per-key request budget per minute when the key sets none. */
  @Transform(toInt) @IsInt() @Min(1) RATE_LIMIT_PER_MINUTE = 6000;
  @Transform(toInt) @IsInt() @Min(1) IDEMPOTENCY_TTL_HOURS = 24;
  /** Every this many ms the maintenance queue deletes expired idempotency keys (hourly by default). */
  @Transform(toInt) @IsInt() @Min(1000) IDEMPOTENCY_PURGE_MS = 3_600_000;
  @Transform(toBool) @IsBoolean() WEBHOOK_ALLOW_PRIVATE_TARGETS = false;
  /** Delays in ms before attempts 2..n; empty means the contract's schedule. */
  @IsOptional()
  @IsString()
  @Matches(/^\s*\d+\s*(,\s*\d+\s*)*$/, { message: 'must be comma-separated integers (milliseconds)' })
  WEBHOOK_RETRY_DELAYS_MS?: string;
  /**
   * How long a dispatcher owns a claimed attempt; longer than the 5 s timeout, so replicas never
   * send one attempt twice. An attempt of a dispatcher that died is sent again at most this plus
   * WEBHOOK_SWEEP_INTERVAL_MS later.
   */
  @Transform(toInt) @IsInt() @Min(6000) WEBHOOK_CLAIM_LEASE_MS = 10_000;
  /** How often each dispatcher re-enqueues due deliveries from PostgreSQL (lost jobs, crashes). */
  @Transform(toInt) @IsInt() @Min(100) WEBHOOK_SWEEP_INTERVAL_MS = 3_000;
  /**
   * BullMQ lock of the import and webhook-delivery jobs (ms), renewed every half of it while the
   * worker lives; also how often workers look for jobs whose lock expired. The job of a worker
   * that died runs again on another worker at most twice this later.
   */
  @Transform(toInt) @IsInt() @Min(1000) @Max(600_000) QUEUE_LOCK_MS = 5_000;
  /**
   * How many times an import's job may be taken back from a worker that died; the next death
   * fails the import (an import that kills its worker every time does not loop forever).
   */
  @Transform(toInt) @IsInt() @Min(0) @Max(1000) IMPORT_MAX_STALLS = 5;
  /**
   * How many times an import's job runs when an attempt fails with an error (500 ms apart, each
   * resuming at the checkpoint); when none is left, the import fails with the error.
   */
  @Transform(toInt) @IsInt() @Min(1) @Max(1000) IMPORT_MAX_ATTEMPTS = 20;
  /**
   * How often each dispatcher checks that every queued or running import has a live job, and
   * queues again those whose job is gone or failed.
   */
  @Transform(toInt) @IsInt() @Min(100) IMPORT_SWEEP_INTERVAL_MS = 10_000;
  /** Fallback poll of the outbox when no NOTIFY arrives. */
  @Transform(toInt) @IsInt() @Min(10) WEBHOOK_OUTBOX_POLL_MS = 1_000;
  /** Delivery requests in flight per dispatcher process (batch jobs of up to 50 deliveries each). */
  @Transform(toInt) @IsInt() @Min(1) WEBHOOK_DELIVERY_CONCURRENCY = 200;
  /** Days events are kept (30 by default, as documented). */
  @Transform(toInt) @IsInt() @Min(1) EVENT_RETENTION_DAYS = 30;
  /** Every this many ms the dispatcher deletes events and finished deliveries past EVENT_RETENTION_DAYS. */
  @Transform(toInt) @IsInt() @Min(1000) EVENT_PURGE_MS = 3_600_000;
  @Transform(toInt) @IsInt() @Min(0) @Max(65535) DISPATCHER_HEALTH_PORT = 3002;
  /**
   * Every this many ms the dispatcher re-queues shipment notifications still queued this long
   * after they were written (their job was lost between commit and enqueue).
   */
  @Transform(toInt) @IsInt() @Min(100) SHIPMENT_NOTIFICATION_SWEEP_MS = 60_000;
  /** Every this many ms the dispatcher runs the collections sweep (overdue invoices, late fees). */
  @Transform(toInt) @IsInt() @Min(1000) COLLECTIONS_SWEEP_MS = 3_600_000;
  /**
   * How long after a stock movement commits the dispatcher refreshes the demand average of the
   * products it moved: movements within this time share one refresh (docs/api-decisions.md, Replenishment, "Demand").
   */
  @Transform(toInt) @IsInt() @Min(0) @Max(60_000) DEMAND_REFRESH_DELAY_MS = 250;
  /** Every this many ms the dispatcher refreshes demand averages still marked (a lost job, a restart). */
  @Transform(toInt) @IsInt() @Min(100) DEMAND_REFRESH_SWEEP_MS = 10_000;
  /** Attempts of one channel-listing push before the listing is `failed` (BullMQ retries). */
  @Transform(toInt) @IsInt() @Min(1) @Max(25) LISTING_SYNC_ATTEMPTS = 5;
  /** First retry delay of a channel-listing push in ms; each retry doubles it. */
  @Transform(toInt) @IsInt() @Min(1) LISTING_SYNC_BACKOFF_MS = 1_000;
  /** Every this many ms the dispatcher pulls orders and payouts of every connected integration. */
  @Transform(toInt) @IsInt() @Min(0) INTEGRATION_IMPORT_INTERVAL_MS = 900_000;
  /** Timeout of one request to a connector's remote API, in ms. */
  @Transform(toInt) @IsInt() @Min(100) @Max(120_000) CONNECTOR_TIMEOUT_MS = 10_000;
  /**
   * Lets connector shop URLs use http and private-network addresses (a shop on this machine or
   * a local contract server); off in production, where shop URLs are public https.
   */
  @Transform(toBool) @IsBoolean() CONNECTOR_ALLOW_PRIVATE_TARGETS = false;
  /** Prefix of BullMQ queue names (Redis key prefix or PostgreSQL schema), so suites can share a server. */
  @IsString() QUEUE_PREFIX = 'erp';
  /** Public base URL printed by the seed and used in OpenAPI servers. */
  @IsOptional() @IsString() PUBLIC_BASE_URL?: string;
  @IsOptional() @IsString() SANDBOX_BASE_URL?: string;
  /**
   * Keys encrypting secrets at rest (webhook signing secrets): `<id>:<base64 of 32 bytes>`,
   * comma-separated, the first one encrypting. Required when NODE_ENV=production; elsewhere a
   * public development key is used when unset (docs/operations.md, "Secrets at rest").
   */
  @IsOptional() @IsString() SECRETS_KEY?: string;
  /**
   * Bearer token of `GET /metrics` (Prometheus) on the API and the dispatcher, 32 characters or
   * more (`openssl rand -hex 24` gives 48); unset: the API does not serve the route (404) and
   * records no request series.
   */
  @IsOptional() @IsString() @MinChars(32) METRICS_TOKEN?: string;
  @IsOptional() @IsString() NODE_ENV?: string;
  /** Failed authentications per client address (IPv4, or IPv6 /64) per minute before 429. */
  @Transform(toInt) @IsInt() @Min(1) AUTH_FAILURES_PER_MINUTE = 30;
  /** Failed authentications per entity code (from the key's prefix) per minute before 429 for keys not known valid. */
  @Transform(toInt) @IsInt() @Min(1) AUTH_FAILURES_PER_MINUTE_PER_ENTITY = 600;
  /** ms a failed authentication takes at least (unknown and refused keys answer alike). */
  @Transform(toInt) @IsInt() @Min(0) AUTH_FAILURE_MIN_MS = 25;
  /** ms an unknown key is remembered as unknown (no database lookup meanwhile). */
  @Transform(toInt) @IsInt() @Min(0) AUTH_NEGATIVE_CACHE_MS = 10_000;
  /** HTTP server: ms to receive a request's headers (Node's headersTimeout). */
  @Transform(toInt) @IsInt() @Min(1000) HTTP_HEADERS_TIMEOUT_MS = 10_000;
  /** HTTP server: ms to receive a whole request, body included (Node's requestTimeout). */
  @Transform(toInt) @IsInt() @Min(1000) HTTP_REQUEST_TIMEOUT_MS = 120_000;
  /** HTTP server: ms an idle keep-alive connection stays open. */
  @Transform(toInt) @IsInt() @Min(100) HTTP_KEEP_ALIVE_TIMEOUT_MS = 5_000;
  /** ms without body data after which a request body is refused and its connection closed. */
  @Transform(toInt) @IsInt() @Min(100) HTTP_BODY_IDLE_TIMEOUT_MS = 10_000;
  /** Open connections per listener; further ones are closed at once. */
  @Transform(toInt) @IsInt() @Min(1) HTTP_MAX_CONNECTIONS = 4_096;
  /** The label provider of the fulfillment context: the built-in sandbox carrier, or EasyPost's REST API. */
  @IsIn(['sandbox', 'easypost']) CARRIER_PROVIDER = 'sandbox';
  /** EasyPost API key (required when CARRIER_PROVIDER=easypost); sent as HTTP Basic user name. */
  @IsOptional() @IsString() EASYPOST_API_KEY?: string;
  /** EasyPost's API base (contract tests point it at a local server). */
  @IsString() EASYPOST_BASE_URL = 'https://api.easypost.com/v2';
  /** Hours a quoted rate (rate_object_id) can buy a label. */
  @Transform(toInt) @IsInt() @Min(1) @Max(720) SHIPPING_RATE_TTL_HOURS = 24;
  /** Milliseconds the API waits for in-flight requests on SIGTERM. */
  @Transform(toInt) @IsInt() @Min(0) SHUTDOWN_GRACE_MS = 10_000;

  /** TRUST_PROXY as Express's `trust proxy` takes it (validated by loadConfig). */
  get trustProxy(): boolean | number | string[] {
    return parseTrustProxy(this.TRUST_PROXY);
  }

  /** SECRETS_KEY, or the development key when unset outside production (loadConfig refuses that in production). */
  get secretsKey(): string {
    return this.SECRETS_KEY ?? DEVELOPMENT_SECRETS_KEY;
  }

  get baseUrl(): string {
    return this.PUBLIC_BASE_URL ?? `http://${this.HOST}:${this.PORT}/v1`;
  }

  get sandboxBaseUrl(): string {
    return this.SANDBOX_BASE_URL ?? `http://${this.HOST}:${this.SANDBOX_PORT}/v1`;
  }
}

export class ConfigError extends Error {}

const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** Whether `entry` is an IPv4/IPv6 address or CIDR range. */
function isAddressOrRange(entry: string): boolean {
  const [address, prefix, extra] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || extra !== undefined) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY as Express's `trust proxy` value: false when unset or `false`, true for `true`, a
 * hop count for a number, else the list of addresses, ranges and range names. Throws on an entry
 * that is none of those.
 */
export function parseTrustProxy(value: string | undefined): boolean | number | string[] {
  const text = value?.trim() ?? '';
  if (text === '' || text === 'false') return false;
  if (text === 'true') return true;
  if (/^\d+$/.test(text)) return Number(text);
  const entries = text.split(',').map((entry) => entry.trim());
  const bad = entries.find((entry) => !PROXY_RANGE_NAMES.has(entry) && !isAddressOrRange(entry));
  if (bad !== undefined) {
    throw new Error(
      `'${bad}' is not an address, a CIDR range, loopback, linklocal or uniquelocal (or use true or a hop count)`,
    );
  }
  return entries;
}

/** The secret settings, refused when they still hold an example file's placeholder. */
const PLACEHOLDER_SETTINGS = ['SECRETS_KEY', 'METRICS_TOKEN', 'DATABASE_URL', 'REDIS_URL'] as const;

/** A value shaped like the placeholders of example files: `replace-me`, `change-me`, `<...>`. */
export function looksLikePlaceholder(value: unknown): boolean {
  return typeof value === 'string' && /replace[-_ ]?me|change[-_ ]?me|placeholder|<[^>]*>/i.test(value);
}

/** Builds the configuration from an environment; a bad setting throws naming it. */
export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  overrides: Partial<AppConfig> = {},
): AppConfig {
  const known = Object.keys(new AppConfig());
  const raw: Record<string, unknown> = {};
  for (const key of [
    ...known,
    'DATABASE_URL',
    'REDIS_URL',
    'TRUST_PROXY',
    'WEBHOOK_RETRY_DELAYS_MS',
    'SECRETS_KEY',
    'METRICS_TOKEN',
    'NODE_ENV',
    'EASYPOST_API_KEY',
  ]) {
    if (env[key] !== undefined && env[key] !== '') raw[key] = env[key];
  }
  const config = plainToInstance(AppConfig, raw);
  Object.assign(config, overrides);
  const errors = validateSync(config, { skipMissingProperties: false });
  if (errors.length > 0) {
    const detail = errors
      .map((e) => `${e.property}: ${Object.values(e.constraints ?? {}).join(', ')}`)
      .join('; ');
    throw new ConfigError(`Invalid configuration: ${detail}`);
  }
  const placeholder = PLACEHOLDER_SETTINGS.find((key) => looksLikePlaceholder(raw[key]));
  if (placeholder !== undefined) {
    throw new ConfigError(
      `Invalid configuration: ${placeholder}: holds a placeholder of the example files; set the real value (docs/deployment.md)`,
    );
  }
  if (config.SECRETS_KEY === undefined && config.NODE_ENV === 'production') {
    throw new ConfigError(
      'Invalid configuration: SECRETS_KEY: required when NODE_ENV=production (<id>:<base64 of 32 bytes>; see docs/operations.md)',
    );
  }
  try {
    parseTrustProxy(config.TRUST_PROXY);
  } catch (error) {
    throw new ConfigError(`Invalid configuration: TRUST_PROXY: ${(error as Error).message}`);
  }
  if (config.SECRETS_KEY !== undefined) {
    try {
      parseSecretsKey(config.SECRETS_KEY);
    } catch (error) {
      throw new ConfigError(`Invalid configuration: SECRETS_KEY: ${(error as Error).message}`);
    }
  }
  return config;
}
