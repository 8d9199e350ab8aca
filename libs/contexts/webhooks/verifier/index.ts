/**
 * Signature check for webhook receivers. Self-contained (node:crypto only) so a receiver can
 * copy this file; its signatures name no Node.js type (a body is a string or bytes), so code that
 * calls it compiles without @types/node. The header is `Service-Signature: t=<unix seconds>,v1=<hex>`, where the hex is
 * HMAC-SHA256 of `<t>.<raw body>` keyed with the endpoint secret exactly as shown (`whsec_...`).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'service-signature';
/** Replay window: a signature older than this is refused. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

export type VerificationFailure =
  'missing_header' | 'malformed_header' | 'timestamp_too_old' | 'invalid_signature';

export type VerificationResult =
  { valid: true; timestamp: number } | { valid: false; reason: VerificationFailure };

export class WebhookSignatureError extends Error {
  constructor(readonly reason: VerificationFailure) {
    super(`Webhook signature verification failed: ${reason}`);
    this.name = 'WebhookSignatureError';
  }
}

/** The hex HMAC-SHA256 of `<timestamp>.<body>`. */
export function computeSignature(secret: string, timestamp: number, body: string | Uint8Array): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex');
}

/** The header value for `body` signed at `timestamp` (unix seconds). */
export function signatureHeader(
  secret: string,
  body: string | Uint8Array,
  timestamp = Math.floor(Date.now() / 1000),
): string {
  return `t=${timestamp},v1=${computeSignature(secret, timestamp, body)}`;
}

function parseHeader(header: string): { timestamp: number; signatures: string[] } | undefined {
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq <= 0) return undefined;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't') {
      if (!/^\d{1,12}$/.test(value)) return undefined;
      timestamp = Number(value);
    } else if (key === 'v1') {
      if (!/^[0-9a-f]{64}$/i.test(value)) return undefined;
      signatures.push(value);
    }
  }
  if (timestamp === undefined || signatures.length === 0) return undefined;
  return { timestamp, signatures };
}

/**
 * Verifies a delivery. `payload` must be the raw request body (bytes or string as received,
 * never re-serialized JSON). Any `v1` entry may match; the comparison is constant-time.
 */
export function verifySignature(input: {
  payload: string | Uint8Array;
  header: string | string[] | null | undefined;
  secret: string;
  toleranceSeconds?: number;
  /** Current time in unix seconds (for tests). */
  now?: number;
}): VerificationResult {
  const header = Array.isArray(input.header) ? input.header[0] : input.header;
  if (header === undefined || header === null || header.trim() === '')
    return { valid: false, reason: 'missing_header' };
  const parsed = parseHeader(header);
  if (!parsed) return { valid: false, reason: 'malformed_header' };
  const now = input.now ?? Math.floor(Date.now() / 1000);
  const tolerance = input.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (Math.abs(now - parsed.timestamp) > tolerance) return { valid: false, reason: 'timestamp_too_old' };
  const expected = Buffer.from(computeSignature(input.secret, parsed.timestamp, input.payload), 'hex');
  const matched = parsed.signatures.some((candidate) =>
    timingSafeEqual(expected, Buffer.from(candidate, 'hex')),
  );
  return matched
    ? { valid: true, timestamp: parsed.timestamp }
    : { valid: false, reason: 'invalid_signature' };
}

/** Like verifySignature, but throws WebhookSignatureError and returns the parsed event. */
export function constructEvent<T = unknown>(
  payload: string | Uint8Array,
  header: string | string[] | null | undefined,
  secret: string,
  toleranceSeconds?: number,
): T {
  const result = verifySignature({ payload, header, secret, toleranceSeconds });
  if (!result.valid) throw new WebhookSignatureError(result.reason);
  return JSON.parse(typeof payload === 'string' ? payload : new TextDecoder().decode(payload)) as T;
}
