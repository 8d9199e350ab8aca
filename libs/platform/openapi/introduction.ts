/**
 * The opening text of the OpenAPI description (`info.description`): the rules every operation
 * follows, stated once, so the description read alone is a complete reference. The same rules,
 * at more length, are in docs/reference/.
 */
export const API_INTRODUCTION = [
  'JSON-over-HTTP interface to the ERP: accounts, products, orders, inventory, fulfillment, purchasing, payments, accounting and signed webhooks.',
  '',
  '**Authentication.** `Authorization: Bearer <API key>` on every request. A key belongs to one entity and one mode: a test key sees only test-mode records, a live key only live ones (a record of the other mode is 404). Each operation lists the scopes it needs; a key without them gets 403 `insufficient_scope` with `required`. The sandbox server accepts test keys only.',
  '',
  "**Errors.** Every error is one flat object (`ErrorEnvelope`): `error` and `code` (the machine-readable code), `type`, `hint`, `param` (the field at fault), `required` (a missing scope), `request_id` (equal to the `Request-Id` header), and a code's extra fields at the same level. A 5xx is safe to retry with the same `Idempotency-Key`.",
  '',
  '**Lists.** Cursor pages, newest first: `limit` (1 to 100, default 20), `starting_after` or `ending_before` (an id), `include_count`. The answer is `{object: "list", data, has_more, url, total_count?}`; read on with `starting_after=<last id>` until `has_more` is false. Cursors stay valid when records are added or deleted. `expand[]=<field>` puts the related object beside its id field.',
  '',
  '**Idempotency.** POST, PATCH and DELETE accept `Idempotency-Key` (1 to 255 characters, not all white space, kept 24 hours per entity and mode). A retry with the same key, method, path and body returns the first answer with `Idempotent-Replayed: true` and runs nothing again; the same key with another request is 400 `idempotency_key_reused`; while the first is still running, 409 `idempotency_key_in_use`.',
  '',
  '**Input.** A body is JSON in UTF-8 with `Content-Type: application/json` (another type is 415 `unsupported_media_type`, bytes that are not UTF-8 400 `invalid_json`). Ids are any 8-4-4-4-12 hex value (`format: uuid`, whatever the version digits). No string may hold U+0000 or an unpaired UTF-16 surrogate (400 `parameter_invalid` naming the field); free strings carry a pattern saying the first. Dates are `YYYY-MM-DD` and date-times RFC 3339 with upper-case `T` and `Z`, years 1000 to 9999, each with its exact pattern.',
  '',
  '**Conditional requests.** A GET answers a weak `ETag` and honours `If-None-Match` (304). PATCH and DELETE honour `If-Match` (412 `precondition_failed` when the record changed).',
  '',
  '**Rate limits.** A budget of requests per key and minute, shared by all instances. Every authenticated answer carries `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset` (seconds); over the budget the answer is 429 `rate_limited` with `Retry-After`.',
  '',
  '**Events and webhooks.** Every change emits events (`<family>.<verb>`, 118 types in 14 families, listed by `GET /v1/entities/{entity_id}/event_types`) in the transaction of the change. Webhook endpoints receive them as signed POSTs, at least once: `Service-Signature: t=<unix seconds>,v1=<hex>`, where `v1` is HMAC-SHA256 of `<t>.<raw body>` keyed with the endpoint secret as shown (`whsec_` included); refuse timestamps older than 300 seconds and deduplicate on the event `id`. A receiver answers 2xx within 5 seconds; a failed delivery is tried again, 7 attempts in all over about 39 hours.',
  '',
  "**Versioning.** The major version is in the path (`/v1`); within it changes are additive (new routes, optional parameters, response fields, event types, error codes), so clients ignore what they do not know. Event payloads carry `api_version` (a date). The repository's CHANGELOG.md lists every change of the contract by date.",
].join('\n');
