import { ERROR_CATALOG, ErrorCode } from './error-catalog';

/** What each error code means and what the caller does about it (docs/errors.md is generated from this). */
export const ERROR_DESCRIPTIONS: Record<ErrorCode, { meaning: string; remedy: string }> = {
  parameter_invalid: {
    meaning:
      'A body or query field fails validation; `param` names it (dotted for nested fields, e.g. `items[0].quantity`).',
    remedy: 'Correct the named field as `hint` says and send the request again.',
  },
  parameter_missing: { meaning: 'A required field is absent; `param` names it.', remedy: 'Add the field.' },
  parameter_unknown: {
    meaning: 'The body has a field the operation does not accept; `param` names it.',
    remedy: 'Remove the field (check its spelling against the reference).',
  },
  invalid_json: {
    meaning: 'The body is not valid JSON.',
    remedy: 'Send a JSON object with `Content-Type: application/json`.',
  },
  unsupported_param: {
    meaning: 'A parameter is recognised but not supported in this combination (e.g. `as_of_date`).',
    remedy: 'Drop the parameter; `hint` names the supported alternative.',
  },
  idempotency_key_reused: {
    meaning: 'The Idempotency-Key was used within 24 hours for a different method, path or body.',
    remedy: 'Use a new key for a different request; reuse a key only to retry the identical request.',
  },
  idempotency_key_too_long: {
    meaning: 'The Idempotency-Key is over 255 characters.',
    remedy: 'Use a shorter key, such as a UUID.',
  },
  invalid_api_key: {
    meaning:
      'The Authorization header is missing or malformed, or the key is unknown or expired (on the sandbox port: a live key).',
    remedy: 'Send `Authorization: Bearer <key>` with an active key of the right mode.',
  },
  api_key_revoked: {
    meaning: 'The key was revoked or rotated.',
    remedy: 'Use the replacement key (rotation) or create a new one.',
  },
  insufficient_scope: {
    meaning: 'The key lacks a scope the operation needs; `required` lists it.',
    remedy: 'Use a key with that scope, or create one that holds it.',
  },
  entity_isolation_violation: {
    meaning: 'The path names an entity other than the key’s own.',
    remedy: 'Use the flat route, or the key’s own entity id in the path.',
  },
  ip_not_allowed: {
    meaning: 'The request comes from an address outside the key’s IP allowlist.',
    remedy: 'Call from an allowed address or widen the key’s allowlist.',
  },
  not_found: {
    meaning:
      'No such record for this entity and mode (records of another entity or mode are not found either).',
    remedy: 'Check the id and that the key’s mode (live or test) matches the record’s.',
  },
  method_not_allowed: {
    meaning: 'The path exists but not with this HTTP method.',
    remedy: 'Use one of the methods the reference lists for the path.',
  },
  idempotency_key_in_use: {
    meaning: 'A request with the same Idempotency-Key is still running.',
    remedy: 'Wait briefly and retry with the same key; you will get its stored response.',
  },
  revision_unacknowledged: {
    meaning: 'The order changed after it was sent to the customer and the revision is not acknowledged.',
    remedy: 'Call `POST /orders/{id}/customer-acknowledge-revision` first.',
  },
  duplicate_url: {
    meaning: 'A webhook endpoint with this URL already exists; `existing_id` names it.',
    remedy: 'Update the existing endpoint instead of creating another.',
  },
  duplicate_sku: {
    meaning: 'Another product or variant has this SKU.',
    remedy: 'Choose a unique SKU or update the existing record.',
  },
  invalid_state: {
    meaning: 'The operation is not allowed in the record’s current status; `hint` names the status.',
    remedy: 'Retrieve the record and act according to its status.',
  },
  resource_conflict: {
    meaning:
      'The record would duplicate an existing one (e.g. a second listing of a product on one channel).',
    remedy: 'Update the existing record instead.',
  },
  precondition_failed: {
    meaning: 'If-Match does not match the record’s current ETag: it changed since you read it.',
    remedy: 'Retrieve it again, reapply your change and send the new ETag.',
  },
  malformed_request: {
    meaning: 'The bytes received are not a valid HTTP/1.1 request (answered before any route runs).',
    remedy: 'Fix the client or proxy sending the request; the connection is closed after this answer.',
  },
  request_timeout: {
    meaning: 'The request line, headers or body did not arrive completely within the server’s timeout.',
    remedy: 'Send the request again; check for a stalled upload or proxy.',
  },
  request_header_fields_too_large: {
    meaning: 'The request line and headers together exceed 16 KB.',
    remedy: 'Send fewer or shorter headers (cookies from another site, oversized custom headers).',
  },
  test_mode_only: {
    meaning: 'A test helper was called with a live key; test helpers act on test-mode records only.',
    remedy: 'Call it with a test key (`key_test_...`).',
  },
  not_acceptable: {
    meaning: 'The `Accept` header names only types this resource cannot be served in.',
    remedy: 'Accept one of the types the hint lists, or `*/*`.',
  },
  payload_too_large: {
    meaning:
      'The body is over its limit (1 MiB of JSON; 64 MiB for an import upload), or a line of an import upload is over 1 MiB (`line` names it).',
    remedy:
      'Send fewer records per request (imports take chunks); keep each record of an upload under 1 MiB.',
  },
  unsupported_media_type: {
    meaning: 'The body is not `application/json`.',
    remedy: 'Send JSON with `Content-Type: application/json`.',
  },
  quantity_exceeds_remaining: {
    meaning: 'A quantity exceeds what remains to fulfil, receive or return on the line.',
    remedy: 'Lower the quantity to at most the remaining amount.',
  },
  insufficient_stock: {
    meaning:
      'The movement would take on-hand stock below zero at that location, and the entity does not allow negative stock.',
    remedy:
      'Receive or transfer stock first, lower the quantity, or allow negative stock in GET|PATCH /inventory/settings.',
  },
  serial_not_allocated: {
    meaning: 'A serial number is not allocated to this line or location.',
    remedy: 'Allocate the serial first or pick an allocated one.',
  },
  serial_duplicate: {
    meaning:
      'A serial number already exists for the product (one repeated within a request is a 400 `parameter_invalid` naming the repeat).',
    remedy: 'Send a serial number that is not recorded yet.',
  },
  order_not_confirmed: {
    meaning: 'The operation needs a confirmed order.',
    remedy: 'Confirm the order (`POST /orders/{id}/confirm`) first.',
  },
  label_purchase_failed: {
    meaning: 'The carrier refused the shipping label purchase.',
    remedy: 'Check the rate and addresses, then retry or choose another rate.',
  },
  unbalanced_entry: {
    meaning: 'The journal entry’s debits and credits differ.',
    remedy: 'Make the debit and credit totals equal.',
  },
  period_closed: {
    meaning: 'The date falls in a closed accounting period.',
    remedy: 'Use a date in an open period, or reopen the period.',
  },
  account_not_postable: {
    meaning: 'The ledger account does not take postings (a header account or inactive).',
    remedy: 'Post to a postable account.',
  },
  amount_exceeds_limit: {
    meaning:
      'An amount exceeds what is allowed (open balance, credit limit, refundable amount, net book value).',
    remedy: 'Lower the amount; `hint` states the limit.',
  },
  invoice_not_open: {
    meaning: 'The invoice is not open for payment.',
    remedy: 'Apply the amount to an open invoice.',
  },
  unapplied_remainder: {
    meaning: 'Part of the amount is not applied to any invoice.',
    remedy: 'Apply the whole amount, or record the remainder separately.',
  },
  card_declined: {
    meaning: 'The card was declined; the failed payment is stored without the card number.',
    remedy: 'Ask the customer for another payment method.',
  },
  entity_frozen: {
    meaning: 'The entity is frozen for cutover and no valid X-Freeze-Token was sent.',
    remedy: 'Wait for the unfreeze, or send the freeze token with a migrations:write key.',
  },
  rate_limited: {
    meaning: 'The key exceeded its per-minute rate limit.',
    remedy: 'Wait `Retry-After` seconds; spread requests using the `RateLimit-*` headers.',
  },
  invalid_expand: {
    meaning:
      'An `expand[]` entry names an unknown or non-expandable path, or is deeper than 4; `param` is `expand[<n>]`.',
    remedy: 'Use an expandable field listed in the reference.',
  },
  integration_not_connected: {
    meaning:
      'The channel listing belongs to no connected integration (none was connected when it was created, or its integration was disconnected), so nothing can push it.',
    remedy:
      'Connect an integration of the channel (`POST /integrations`) or set the listing’s `integration_id`, then sync again.',
  },
  connector_auth_failed: {
    meaning: 'The remote platform refused the integration’s credentials (its answer was 401 or 403).',
    remedy: 'Replace the credentials with `PATCH /integrations/{id}` and test again.',
  },
  connector_unreachable: {
    meaning:
      'The remote platform could not be reached or answered with a server error (timeout, refused connection, 5xx, an answer that is not its API).',
    remedy: 'Check the shop URL in the settings; retry later.',
  },
  connector_rate_limited: {
    meaning:
      'The remote platform is throttling this integration (its answer was 429); `retry_after` gives its wait in seconds.',
    remedy: 'Wait `retry_after` seconds, then retry.',
  },
  connector_not_supported: {
    meaning: 'The sales channel’s connector does not support this operation.',
    remedy: 'Manage the listing on the channel itself.',
  },
  internal_error: {
    meaning: 'An unexpected failure; the body carries no details beyond `request_id`.',
    remedy: 'Retry with the same Idempotency-Key; if it persists, report the `request_id`.',
  },
  service_unavailable: {
    meaning: 'A dependency (database, queue) is unavailable.',
    remedy: 'Retry later with the same Idempotency-Key.',
  },
};

/** docs/errors.md: every code with its status, type, meaning and remedy, in catalog order. */
export function renderErrorsDoc(): string {
  const rows = (Object.keys(ERROR_CATALOG) as ErrorCode[]).map((code) => {
    const { status, type } = ERROR_CATALOG[code];
    const { meaning, remedy } = ERROR_DESCRIPTIONS[code];
    return `| \`${code}\` | ${status} | \`${type}\` | ${meaning} | ${remedy} |`;
  });
  return [
    '# Error codes',
    '',
    'Generated from `libs/platform/errors/error-catalog.ts` and `error-descriptions.ts` by',
    '`npm run docs:errors`; a unit test fails when this file is stale. Every error answer is one flat',
    'JSON object: `{"error", "code", "type", "hint", "param"?, "required"?, "request_id"}` plus the',
    'extra fields of its code.',
    '',
    '| Code | Status | Type | Meaning | Remedy |',
    '| --- | --- | --- | --- | --- |',
    ...rows,
    '',
  ].join('\n');
}
