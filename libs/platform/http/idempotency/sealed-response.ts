import { SecretBox } from '../../crypto/secret-box';

/** The purpose the secret fields of a stored idempotent response are sealed for. */
export const RESPONSE_SECRETS_PURPOSE = 'idempotency_keys.response_secrets';

/** A response split for storage: the body without its secrets, and the secrets sealed. */
export interface StoredResponse {
  /** The body with each secret field's value replaced by null (fields keep their order). */
  body: unknown;
  /** The secret fields' values as one sealed JSON object, or null when the body carried none. */
  sealed: string | null;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Splits `body` for storage: every listed top-level field holding a string is taken out of the
 * stored body (its value becomes null, so the field keeps its place) and sealed with `box`.
 */
export function sealResponse(body: unknown, fields: readonly string[], box: SecretBox): StoredResponse {
  if (fields.length === 0 || !isRecord(body)) return { body, sealed: null };
  const secrets: Record<string, string> = {};
  const stored: Record<string, unknown> = { ...body };
  for (const field of fields) {
    const value = body[field];
    if (typeof value !== 'string') continue;
    secrets[field] = value;
    stored[field] = null;
  }
  if (Object.keys(secrets).length === 0) return { body, sealed: null };
  return { body: stored, sealed: box.seal(JSON.stringify(secrets), RESPONSE_SECRETS_PURPOSE) };
}

/** The response as first sent: the stored body with its sealed fields put back in place. */
export function openResponse(body: unknown, sealed: string | null, box: SecretBox): unknown {
  if (sealed === null || !isRecord(body)) return body;
  const secrets = JSON.parse(box.open(sealed, RESPONSE_SECRETS_PURPOSE)) as Record<string, string>;
  const restored: Record<string, unknown> = { ...body };
  for (const [field, value] of Object.entries(secrets)) restored[field] = value;
  return restored;
}
