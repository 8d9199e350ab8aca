import { ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  livePaths,
  makeLiveRecords,
  operationPhase,
  type LiveRecords,
  type Send,
} from '../test/support/live-records';
import { OpenApiResponseValidator, type OpenApiDocument } from '../test/support/openapi-validator';

/**
 * `npm run test:conformance` (CI): checks the running API against its OpenAPI description with
 * tools this project did not write. Portman (@apideck/portman) turns the served description into a
 * Postman collection: for every operation one request built from the description's examples and
 * schemas (valid input, the live key), its fuzzing variations (invalid input: a required field
 * left out, a number below its minimum or above its maximum, a string shorter or longer than its
 * limits, in the body, the query and the headers), and the same request with the read-only key and
 * with no key. Newman runs the collection against a server started on a fresh embedded
 * PostgreSQL with the QA seed. Each answer is judged here:
 *
 * - every answer: no 5xx; its status documented for the operation and its body matching the
 *   documented schema (ajv, JSON Schema 2020-12, against the served document); Portman's own
 *   contract tests (content type, JSON body) pass;
 * - valid input with the live key: 2xx;
 * - invalid input: 4xx (never 2xx);
 * - the read-only key: a read as with the live key, a write 403;
 * - no key: 401 (operations that need no key excepted);
 * - the example as generated, where it breaks a business rule of the live records and the valid
 *   request sends it made valid (exampleFixes): a documented 4xx, the business error;
 * - the valid request with a body of another media type (`text/plain`): 415;
 * - the valid request with its JSON body followed by more than the 1 MiB limit of white space
 *   (`TOO_LARGE_PADDING`, still valid JSON): 413, and it changes nothing;
 * - the valid request with one more query parameter, one no operation takes (`UNKNOWN_QUERY`):
 *   400 `parameter_unknown` naming it, before anything is done;
 * - the valid request with a key holding only `NARROW_SCOPE` (`[out of scope]`), where the operation
 *   needs another: 403 `insufficient_scope`; and with such a key allowed one request a minute and
 *   already past it (`[spent key]`): 429 `rate_limited` (or, for the first request of a new
 *   minute, 403 `insufficient_scope` with `RateLimit-Remaining: 0`: counted, then refused for its
 *   scope). Both are sent before the valid request and change nothing;
 * - every write's valid request again while the run's entity is frozen (between the cutover freeze
 *   and unfreeze of the entity-prefixed form), without the freeze token: 423 `entity_frozen`,
 *   except the operations described as `x-allowed-while-frozen` and the test-mode helpers (the
 *   freeze is the live mode's);
 * - a PATCH or DELETE's valid request with an `If-Match` naming no representation the record ever
 *   had (`STALE_ETAG`), sent before the valid one: 412, and it changes nothing.
 *
 * Path ids are live records (the QA seed's fixtures and records made first, see liveIds), and so
 * are the reference fields of bodies (withLiveReferences). The summary counts the operations whose
 * valid request reached a 2xx and lists the others with their answer, then the documented 4xx
 * statuses no answer had, by status. What a request kind cannot know is listed, with its reason,
 * in openapi/conformance/exceptions.json; an exception that no answer used is reported. Fails on
 * any violation.
 */

const ROOT = path.resolve(__dirname, '../..');
const CONFIG_DIR = path.join(ROOT, 'openapi/conformance');

/** An entity tag no representation has: hashes are base64url SHA-1 digests, never this text. */
const STALE_ETAG = 'W/"stale-representation"';

/** A query parameter no operation takes. */
const UNKNOWN_QUERY = 'conformance_unknown';

/** The one scope of the narrow keys: it opens a single read (GET /v1/activity). */
const NARROW_SCOPE = 'activity:read';

/** Whether a key holding only NARROW_SCOPE is refused the operation for its scopes. */
const outOfNarrowScope = (operation: Operation): boolean =>
  operation.secured &&
  operation.requiredScopes.some((requirement) => !requirement.split('|').includes(NARROW_SCOPE));

/**
 * Between the entity-prefixed cutover freeze (phase 8) and its unfreeze (8.25): the live mode of
 * the run's entity is frozen (operationPhase).
 */
const FROZEN_PHASE = 8.1;

/**
 * Whether the freeze gate refuses the operation for the live key: every write that needs a key,
 * but those described as `x-allowed-while-frozen` (the migration tooling) and the test-mode
 * helpers (the run freezes the live mode).
 */
const frozenGated = (method: string, operation: Operation): boolean =>
  method !== 'get' &&
  operation.secured &&
  !operation.allowedWhileFrozen &&
  !operation.template.startsWith('/v1/test_helpers/');

/** The environment variable holding the white space that takes a body past the 1 MiB limit. */
const TOO_LARGE_PADDING = 'tooLargePadding';

type Kind =
  | 'valid'
  | 'example'
  | 'other media type'
  | 'stale If-Match'
  | 'too large'
  | 'frozen'
  | 'out of scope'
  | 'unknown query parameter'
  | 'spent key'
  | 'invalid'
  | 'path id not a uuid'
  | 'read-only key'
  | 'no key';

interface Exception {
  /** A regular expression matched against `METHOD /path/template` (e.g. `^POST /v1/orders$`). */
  operation: string;
  /** The request kinds it applies to. */
  kinds: Kind[];
  /** The statuses it allows. */
  statuses: number[];
  /** When given, the error code the answer must carry. */
  code?: string;
  /** When given, the error's `param` must equal it. */
  param?: string;
  /** When given, a regular expression the error's `hint` must match. */
  hint?: string;
  reason: string;
}

interface Execution {
  kind: Kind;
  name: string;
  method: string;
  url: string;
  template: string;
  operationId: string;
  status: number;
  /** The error's code, param and hint, for the report. */
  answer?: string;
  error?: { code?: string; param?: string; hint?: string };
  /** The answer's RateLimit-Remaining header. */
  rateLimitRemaining?: string;
  problems: string[];
}

interface Operation {
  method: string;
  template: string;
  operationId: string;
  secured: boolean;
  /** `x-required-scopes`: each requirement a scope or `a|b` alternatives. */
  requiredScopes: string[];
  /** `x-allowed-while-frozen`: the cutover freeze lets it through. */
  allowedWhileFrozen: boolean;
}

/** Runs a command to its end; rejects with its output when it fails. */
function run(command: string, args: string[], cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${path.basename(command)} exited with ${code}:\n${output}`)),
    );
  });
}

/** A free TCP port on 127.0.0.1. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function waitFor(url: string, deadline: number, stack: ChildProcess): Promise<void> {
  for (;;) {
    if (stack.exitCode !== null)
      throw new Error(`the server exited with code ${stack.exitCode} before answering`);
    const ok = await fetch(url).then(
      (res) => res.ok,
      () => false,
    );
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`${url} did not answer within 300 s`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

function operationsOf(document: OpenApiDocument): Operation[] {
  const out: Operation[] = [];
  for (const [template, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!METHODS.includes(method)) continue;
      const op = operation as {
        operationId?: string;
        security?: unknown[];
        'x-required-scopes'?: string[];
        'x-allowed-while-frozen'?: boolean;
      };
      out.push({
        method: method.toUpperCase(),
        template,
        operationId: op.operationId ?? `${method.toUpperCase()} ${template}`,
        secured: (op.security ?? []).length > 0,
        requiredScopes: op['x-required-scopes'] ?? [],
        allowedWhileFrozen: op['x-allowed-while-frozen'] === true,
      });
    }
  }
  return out;
}

/**
 * Two live keys holding only NARROW_SCOPE: `outOfScopeKey`, and `spentKey`, allowed one request a
 * minute, which it spends at once.
 */
async function createNarrowKeys(
  origin: string,
  entity: { id: string; keys: Record<string, string> },
): Promise<{ outOfScopeKey: string; spentKey: string }> {
  const create = async (name: string, extra: object): Promise<string> => {
    const res = await fetch(`${origin}/v1/entities/${entity.id}/api_keys`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${entity.keys.live}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name, scopes: [NARROW_SCOPE], ...extra }),
    });
    const body = (await res.json()) as { secret?: string };
    if (res.status !== 201 || !body.secret)
      throw new Error(`creating the key "${name}" answered ${res.status}`);
    return body.secret;
  };
  const outOfScopeKey = await create('conformance: out of scope', {});
  const spentKey = await create('conformance: spent', { rate_limit_per_minute: 1 });
  const spent = await fetch(`${origin}/v1/activity`, { headers: { Authorization: `Bearer ${spentKey}` } });
  if (spent.status !== 200) throw new Error(`spending the rate-limited key answered ${spent.status}`);
  return { outOfScopeKey, spentKey };
}

/** The Portman configuration: the checked-in one, plus the path parameters' values for this run. */
function portmanConfig(document: OpenApiDocument): Record<string, unknown> {
  const config = JSON.parse(readFileSync(path.join(CONFIG_DIR, 'portman-config.json'), 'utf8')) as {
    tests: { variationTests: unknown[] };
    globals: Record<string, unknown>;
  };
  // Every path parameter but the entity's own id starts as a random uuid; liveCollection() then
  // puts the live ids of each operation in its place (a random uuid remains only where none is found).
  const names = new Set<string>();
  for (const template of Object.keys(document.paths))
    for (const [, name] of template.matchAll(/\{(\w+)\}/g)) names.add(name);
  const replacements: Record<string, string> = {};
  for (const name of names) replacements[name] = name === 'entity_id' ? '{{entityId}}' : '{{$guid}}';
  config.globals.keyValueReplacements = replacements;
  // The same requests with every record id in the path replaced by a value that is not a uuid.
  const withIds = operationsOf(document).filter((op) =>
    [...op.template.matchAll(/\{(\w+)\}/g)].some(([, name]) => name !== 'entity_id'),
  );
  config.tests.variationTests.push({
    openApiOperationIds: withIds.map((op) => op.operationId),
    variations: [
      {
        name: 'path id not a uuid',
        overwrites: [
          {
            overwriteRequestPathVariables: [...names]
              .filter((name) => name !== 'entity_id')
              .map((key) => ({ key, value: 'not-a-uuid', insert: false })),
          },
        ],
        tests: { contractTests: [] },
      },
    ],
  });
  // openapi-to-postmanv2's faker writes a `format: uuid` value as a `urn:uuid:` URN; the value is the uuid.
  config.globals.portmanReplacements = [{ searchFor: 'urn:uuid:', replaceWith: '' }];
  return config;
}

/** The environment variable that carries a live id of one operation's path parameter. */
const liveVariable = (operationId: string, name: string) => `live_${operationId}_${name}`;
/** The environment variable that carries the body naming the records of an operation's flow. */
const liveBody = (operationId: string) => `live_body_${operationId}`;

interface CollectionItem {
  name: string;
  item?: CollectionItem[];
  request?: {
    method: string;
    url: {
      path?: string[];
      variable?: { key: string; value: string }[];
      query?: { key: string; value?: string | null; disabled?: boolean }[];
    };
    body?: { mode?: string; raw?: string };
    header?: { key: string; value: string; disabled?: boolean }[];
    auth?: { type: string; bearer?: { key: string; value: string }[] };
  };
}

/**
 * Rewrites Portman's collection for live records: every path parameter that holds a random uuid
 * holds instead `{{live_<operationId>_<name>}}` (the environment gives the live id), and the
 * requests run in the order of operationPhase (reads, creates, edits, actions, the actions that
 * end a record's life, deletes, the cutover freeze and unfreeze), so that a record is read and
 * edited before it is cancelled or deleted. Variations (fuzzing, read-only key, no key) keep
 * their place next to their operation. The valid request of an operation whose flow gives a body
 * (the serials of the line, the rate quoted for the package) sends `{{live_body_<operationId>}}`;
 * in every other body, a reference field (`*_id`) that holds a uuid (the description's sample)
 * holds a live id of its kind instead (withLiveReferences), so that a valid request can succeed
 * and an invalid one is refused for the field it breaks.
 * Query values are percent-encoded, so the server reads each as the collection states it.
 */
function liveCollection(
  file: string,
  document: OpenApiDocument,
  live: {
    bodies: Set<string>;
    reference: Reference;
    fixes: Map<string, ExampleFix>;
    environment: Record<string, string>;
  },
): Map<string, string> {
  const { bodies, reference, fixes, environment } = live;
  // The body Portman generated for each operation's valid request (reference fields live).
  const generated = new Map<string, string>();
  const collection = JSON.parse(readFileSync(file, 'utf8')) as { item: CollectionItem[] };
  const operations = operationsOf(document).map((op) => ({
    ...op,
    pattern: new RegExp(
      `^${op.template
        .split(/\{\w+\}/)
        .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
        .join('[^/]+')}$`,
    ),
    params: (op.template.match(/\{/g) ?? []).length,
  }));
  operations.sort((a, b) => a.params - b.params);
  const leaves: { item: CollectionItem; phase: number; index: number }[] = [];
  const walk = (items: CollectionItem[]) => {
    for (const item of items) {
      if (item.item) walk(item.item);
      if (!item.request) continue;
      const method = item.request.method.toLowerCase();
      const pathname = `/${(item.request.url.path ?? []).join('/')}`;
      const operation = operations.find(
        (op) =>
          op.method === item.request!.method.toUpperCase() &&
          op.pattern.test(pathname.replace(/:(\w+)/g, 'x')),
      );
      // A query value is sent as the literal text the description's schema generated: newman
      // leaves `%41` or `+` in a value as they are, which the server decodes (`A`, a space), so a
      // random value holding them reached the server shorter than its maxLength variation meant.
      // Only a value that is one variable (`{{name}}`) is left for newman to fill: a random value
      // of braces (`{{{{...`) is text, which newman would otherwise read as a variable and empty.
      for (const param of item.request.url.query ?? [])
        if (typeof param.value === 'string' && !/^\{\{[\w$.-]+\}\}$/.test(param.value))
          param.value = encodeURIComponent(param.value);
      if (operation)
        for (const variable of item.request.url.variable ?? [])
          if (variable.key !== 'entity_id' && /^\{\{\$guid\}\}$|^[0-9a-f-]{36}$/.test(variable.value))
            variable.value = `{{${liveVariable(operation.operationId, variable.key)}}}`;
      const key = operation && `${operation.method} ${operation.template}`;
      const kind = kindOf(item.name);
      if (operation && bodies.has(operation.operationId) && kind === 'valid' && item.request.body)
        item.request.body.raw = `{{${liveBody(operation.operationId)}}}`;
      else if (key && item.request.body?.raw) {
        item.request.body.raw = withLiveReferences(item.request.body.raw, key, reference);
        if (kind === 'valid') generated.set(key, item.request.body.raw);
      }
      // The valid request, and the same request with a path id that is not a uuid, of an operation
      // whose example breaks a business rule send the example made valid (exampleFixes). The
      // example as generated is sent too, right after the valid request ([example]), to reach the
      // business error it breaks: but not a webhook endpoint's, whose host resolves on a machine
      // with DNS (an endpoint would then be registered to a real host).
      // An operation whose flow gives its valid body (live-records) needs no fix and has no example.
      const flowBody = operation !== undefined && bodies.has(operation.operationId);
      const fix = key && !flowBody ? fixes.get(key) : undefined;
      const example =
        operation &&
        kind === 'valid' &&
        ((fix && !operation.template.includes('webhook_endpoints')) ||
          operation.template.startsWith('/v1/test_helpers/'))
          ? (JSON.parse(JSON.stringify({ ...item, name: `${item.name}[example]` })) as CollectionItem)
          : undefined;
      if (operation && fix && item.request.body?.raw && (kind === 'valid' || kind === 'path id not a uuid')) {
        const variable = liveBody(operation.operationId);
        if (kind === 'valid' || environment[variable] === undefined) {
          const ids: Record<string, string> = {};
          for (const [, name] of operation.template.matchAll(/\{(\w+)\}/g))
            ids[name] = environment[liveVariable(operation.operationId, name)] ?? '';
          environment[variable] = JSON.stringify(fix(JSON.parse(item.request.body.raw) as Body, ids));
        }
        item.request.body.raw = `{{${variable}}}`;
      }
      // Test helpers act on test-mode records: their requests with the run's key carry its test key.
      if (operation?.template.startsWith('/v1/test_helpers/'))
        for (const entry of item.request.auth?.bearer ?? [])
          if (entry.value === '{{bearerToken}}') entry.value = '{{testKey}}';
      const phase = operation ? operationPhase(method, operation.template) : 0;
      // Before the valid request, the same request with a body of another media type where the
      // operation documents 415: refused before the handler, it changes nothing.
      if (
        operation &&
        kind === 'valid' &&
        item.request.body?.raw &&
        '415' in ((document.paths[operation.template]?.[method] as { responses?: object }).responses ?? {})
      ) {
        const copy = JSON.parse(
          JSON.stringify({ ...item, name: `${item.name}[other media type]` }),
        ) as CollectionItem;
        copy.request!.header = [
          ...(copy.request!.header ?? []).filter((h) => h.key.toLowerCase() !== 'content-type'),
          { key: 'Content-Type', value: 'text/plain' },
        ];
        leaves.push({ item: copy, phase, index: leaves.length });
      }
      // Before the valid request, the same body padded past the body limit where the operation
      // documents 413: refused before the handler, it changes nothing. The padding is one
      // environment variable, so the collection holds it once.
      if (
        operation &&
        kind === 'valid' &&
        item.request.body?.raw &&
        '413' in ((document.paths[operation.template]?.[method] as { responses?: object }).responses ?? {})
      ) {
        const copy = JSON.parse(
          JSON.stringify({ ...item, name: `${item.name}[too large]` }),
        ) as CollectionItem;
        copy.request!.body!.raw = `${copy.request!.body!.raw}{{${TOO_LARGE_PADDING}}}`;
        leaves.push({ item: copy, phase, index: leaves.length });
      }
      // Before the valid request, the same request with a query parameter it does not take.
      if (operation && kind === 'valid') {
        const copy = JSON.parse(
          JSON.stringify({ ...item, name: `${item.name}[unknown query parameter]` }),
        ) as CollectionItem;
        copy.request!.url!.query = [...(copy.request!.url!.query ?? []), { key: UNKNOWN_QUERY, value: '1' }];
        leaves.push({ item: copy, phase, index: leaves.length });
      }
      // Before the valid request, the same request with a key that lacks its scope, and with such
      // a key already past its one request a minute: refused before the handler.
      if (operation && kind === 'valid' && outOfNarrowScope(operation)) {
        for (const [label, key] of [
          ['out of scope', 'outOfScopeKey'],
          ['spent key', 'spentKey'],
        ]) {
          const copy = JSON.parse(
            JSON.stringify({ ...item, name: `${item.name}[${label}]` }),
          ) as CollectionItem;
          for (const entry of copy.request!.auth?.bearer ?? [])
            if (entry.key === 'token') entry.value = `{{${key}}}`;
          leaves.push({ item: copy, phase, index: leaves.length });
        }
      }
      // Before a PATCH or DELETE's valid request, the same request with an If-Match that names no
      // representation of the record: refused with 412 before the handler, it changes nothing (the
      // valid request after it then finds the record as it was).
      if (operation && kind === 'valid' && (method === 'patch' || method === 'delete')) {
        const copy = JSON.parse(
          JSON.stringify({ ...item, name: `${item.name}[stale If-Match]` }),
        ) as CollectionItem;
        copy.request!.header = [
          ...(copy.request!.header ?? []).filter((h) => h.key.toLowerCase() !== 'if-match'),
          { key: 'If-Match', value: STALE_ETAG },
        ];
        leaves.push({ item: copy, phase, index: leaves.length });
      }
      leaves.push({ item, phase, index: leaves.length });
      // The same valid request once more while the entity is frozen: refused by the freeze gate.
      if (operation && kind === 'valid' && frozenGated(method, operation)) {
        const copy = JSON.parse(JSON.stringify({ ...item, name: `${item.name}[frozen]` })) as CollectionItem;
        leaves.push({ item: copy, phase: FROZEN_PHASE, index: leaves.length });
      }
      if (example) leaves.push({ item: example, phase, index: leaves.length });
    }
  };
  walk(collection.item);
  collection.item = leaves.sort((a, b) => a.phase - b.phase || a.index - b.index).map((leaf) => leaf.item);
  writeFileSync(file, JSON.stringify(collection));
  return generated;
}

/**
 * The live id for a reference field of an operation's body: `path` is where the field sits (such
 * as `['lines', 1, 'account_id']`), `body` the whole body. Undefined where no record of the kind
 * is known: the value is then left as it is.
 */
type Reference = (operation: string, path: (string | number)[], body: unknown) => string | undefined;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A request body (JSON text) with each `*_id` field that holds a uuid, at any depth (the lines of an
 * order, a journal entry, a return), set to the live id of its kind. A body that is not JSON, and a
 * field whose value is not a uuid (a fuzzing variation's value), are left as they are.
 */
function withLiveReferences(raw: string, operation: string, reference: Reference): string {
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    return raw;
  }
  let changed = false;
  const visit = (value: unknown, path: (string | number)[]): unknown => {
    if (Array.isArray(value)) return value.map((item, i) => visit(item, [...path, i]));
    if (value === null || typeof value !== 'object') return value;
    const out: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(value)) {
      const live =
        /_id$/.test(key) && typeof field === 'string' && UUID.test(field)
          ? reference(operation, [...path, key], body)
          : undefined;
      if (live !== undefined && live !== field) changed = true;
      out[key] = live ?? visit(field, [...path, key]);
    }
    return out;
  };
  const rewritten = visit(body, []);
  return changed ? JSON.stringify(rewritten) : raw;
}

/**
 * The kinds of record a reference field names, where its name alone does not tell (records.refs
 * answers by name): a journal line's account_id names a ledger account (the lines alternate
 * between two), a ledger account's parent_id a ledger account, a return's order
 * and account those of a shipped package, an adjustment's product the product of its variant, a
 * package's box a product of type box, a new listing's product one not listed yet.
 */
function referenceResolver(
  records: LiveRecords,
  extra: {
    ledger: Record<string, string>;
    parentProductId: string;
    shipped: { orderId: string; accountId: string; orderItemId: string };
    deposit: { accountId: string };
    boxProductId: string;
    more: Record<string, string>;
  },
): Reference {
  return (operation, path, body) => {
    const field = String(path[path.length - 1]);
    const line = path.find((part): part is number => typeof part === 'number') ?? 0;
    if (/journal-entries/.test(operation) && field === 'account_id')
      return line % 2 ? extra.ledger.cash : extra.ledger.expense;
    if (/ledger-accounts/.test(operation) && field === 'parent_id') return extra.ledger.cash;
    if (/^POST \/v1\/returns$/.test(operation)) {
      if (field === 'order_id') return extra.shipped.orderId;
      if (field === 'account_id') return extra.shipped.accountId;
      if (field === 'order_item_id') return extra.shipped.orderItemId;
    }
    if (/match-deposit-to-invoices$/.test(operation) && field === 'account_id')
      return extra.deposit.accountId;
    if (field === 'product_id' && typeof body === 'object' && body !== null && 'variant_id' in body)
      return extra.parentProductId;
    // The seed's product is listed on the storefront already, and the run's vendor account is a
    // vendor of the product the run made.
    if (/^POST \/v1\/channel_listings$/.test(operation) && field === 'product_id')
      return extra.parentProductId;
    if (/\/vendors$/.test(operation) && field === 'vendor_account_id') return records.refs.account_id;
    if (field === 'box_product_id') return extra.boxProductId;
    return records.refs[field] ?? extra.more[field];
  };
}

/**
 * The live ids of every operation's path parameters: the QA seed's fixtures and records made
 * first (test/support/live-records.ts), a read's ids checked to answer 200. An operation with no
 * live record gets random uuids (and answers 404, excepted only for it).
 */
async function liveIds(
  origin: string,
  key: string,
  seed: { entities: { primary: { id: string } }; fixtures: Record<string, unknown> },
  document: OpenApiDocument,
): Promise<{
  environment: Record<string, string>;
  unresolved: Set<string>;
  bodies: Set<string>;
  reference: Reference;
  fixes: Map<string, ExampleFix>;
}> {
  const send: Send = async (method, url, body) => {
    const res = await fetch(`${origin}${url}`, {
      method,
      headers: {
        Authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON: kept as text
    }
    return { status: res.status, body: parsed };
  };
  const records = await makeLiveRecords(send, seed);
  // The tag routes' deletes detach the tag the records below carry (their own attach requests send
  // the description's sample uuid, which names no tag).
  const tag = records.refs.tag_id;
  for (const prefix of records.made.keys())
    if (/^\/v1\/(products|accounts|orders)\/[^/]+\/tags$/.test(prefix)) {
      const res = await send('POST', prefix, { tag_id: tag });
      if (res.status >= 300) throw new Error(`attaching a tag at ${prefix} answered ${res.status}`);
    }
  const fixes = await exampleFixes(send, records);
  const environment: Record<string, string> = { [TOO_LARGE_PADDING]: ' '.repeat(1024 * 1024 + 1) };
  const unresolved = new Set<string>();
  const bodies = new Set<string>();
  for (const op of operationsOf(document)) {
    const body = records.flows[`${op.method} ${op.template}`]?.body;
    if (!body) continue;
    environment[liveBody(op.operationId)] = JSON.stringify(body);
    bodies.add(op.operationId);
  }
  // Each delete gets a record no other delete took (two path forms of one resource, such as
  // product_categories and product-categories, would otherwise delete the same record twice).
  const deleted = new Set<string>();
  for (const op of operationsOf(document)) {
    const names = [...op.template.matchAll(/\{(\w+)\}/g)].map(([, name]) => name);
    if (!names.some((name) => name !== 'entity_id')) continue;
    const candidates = await livePaths(send, records, op.template, op.method, op.method === 'DELETE' ? 6 : 1);
    const last = (candidate: string) => candidate.split('/').pop()!;
    const found = candidates.find((candidate) => !deleted.has(last(candidate))) ?? candidates[0];
    if (op.method === 'DELETE' && found) deleted.add(last(found));
    const segments = op.template.split('/');
    const values = found?.split('/');
    if (!found) unresolved.add(`${op.method} ${op.template}`);
    segments.forEach((segment, i) => {
      const name = /^\{(\w+)\}$/.exec(segment)?.[1];
      if (name && name !== 'entity_id')
        environment[liveVariable(op.operationId, name)] = values?.[i] ?? randomUUID();
    });
  }
  return {
    environment,
    unresolved,
    bodies,
    reference: await references(send, records, seed, deleted),
    fixes,
  };
}

/** What referenceResolver needs beyond records.refs: read from the seed's fixtures and the API. */
async function references(
  send: Send,
  records: LiveRecords,
  seed: { fixtures: Record<string, unknown> },
  deleted: Set<string>,
): Promise<Reference> {
  const f = seed.fixtures as {
    ledger_accounts: Record<string, string>;
    shipped_package_id: string;
    bank_deposit: { account_id: string };
  };
  const read = async (url: string) => {
    const res = await send('GET', url);
    if (res.status !== 200) throw new Error(`reading live references: GET ${url} answered ${res.status}`);
    return res.body as Record<string, unknown>;
  };
  const shippedPackage = await read(`/v1/packages/${f.shipped_package_id}`);
  const shippedOrder = await read(`/v1/orders/${String(shippedPackage.order_id)}`);
  // A record a delete of the run takes is never referenced (it would then be refused as in use).
  const first = async (url: string) =>
    ((await read(url)).data as { id: string }[]).find((record) => !deleted.has(record.id))?.id;
  const more: Record<string, string> = {};
  const lists: Record<string, string> = {
    payment_terms_id: '/v1/payment-terms?limit=20',
    fiscal_year_id: '/v1/accounting/fiscal-years?limit=20',
    integration_id: '/v1/integrations?limit=20',
  };
  for (const [field, url] of Object.entries(lists)) {
    const found = await first(url);
    if (found) more[field] = found;
  }
  // A package's box is a product of type box; the seed has none.
  const box = await send('POST', '/v1/products', {
    sku: `GENBOX${randomUUID().slice(0, 8).toUpperCase()}`,
    name: 'Generated box',
    type: 'box',
  });
  if (box.status !== 201) throw new Error(`making a box product answered ${box.status}`);
  // Stock of the run's variant where a transfer takes it from (the example moves 3 units).
  const stock = await send('POST', '/v1/inventory/adjustments', {
    product_id: records.made.get('/v1/products')![0],
    variant_id: records.refs.variant_id,
    location_id: records.refs.from_location_id,
    quantity: 10,
    reason: 'Generated stock',
  });
  if (stock.status !== 201) throw new Error(`adjusting the variant's stock answered ${stock.status}`);
  return referenceResolver(records, {
    ledger: f.ledger_accounts,
    // The product the run made with a variant (records.made lists it first).
    parentProductId: records.made.get('/v1/products')![0],
    shipped: {
      orderId: String(shippedPackage.order_id),
      accountId: String(shippedOrder.account_id),
      orderItemId: String((shippedPackage.items as { order_item_id: string }[])[0].order_item_id),
    },
    deposit: { accountId: f.bank_deposit.account_id },
    boxProductId: (box.body as { id: string }).id,
    more,
  });
}

type Body = Record<string, unknown>;

/**
 * What turns the example body of one operation (its reference fields already live) into a body
 * that is valid against the live records: `ids` holds the values of the request's path parameters.
 */
type ExampleFix = (body: Body, ids: Record<string, string>) => Body;

/**
 * The operations whose example breaks a business rule the description cannot state for the live
 * records (a date range taken by an existing period, a code or SKU already held, journal lines
 * that all debit, more units than the live line has left, more money than is due, a webhook host
 * that needs DNS, a setting of another adapter), each with the change that makes its example
 * valid, drawn from the live records: dates after every existing period and fiscal year, codes
 * and SKUs made unique at run time, balanced lines on two live ledger accounts, an order line of
 * the kit built, a line with units left to pack and shipped units not yet returned, amounts
 * within what the live invoice or bill owes, a loopback webhook URL (the run's server allows
 * private targets, as the test servers do; production refuses them), settings of the
 * integration's own adapter. Records these need are made here, through the API; the edit of a
 * ledger account edits one made for it (never the seed's chart).
 */
async function exampleFixes(send: Send, records: LiveRecords): Promise<Map<string, ExampleFix>> {
  const expect = async (method: string, url: string, body?: unknown): Promise<Body> => {
    const res = await send(method, url, body);
    if (res.status >= 300)
      throw new Error(
        `making valid bodies: ${method} ${url} answered ${res.status} ${JSON.stringify(res.body)}`,
      );
    return res.body as Body;
  };
  const listAll = async (url: string): Promise<Body[]> => {
    const all: Body[] = [];
    for (;;) {
      const last = all.at(-1);
      const page = await expect('GET', `${url}?limit=100${last ? `&starting_after=${String(last.id)}` : ''}`);
      all.push(...(page.data as Body[]));
      if (!page.has_more) return all;
    }
  };
  const unique = () => `GEN${randomUUID().replace(/-/g, '').slice(0, 12).toUpperCase()}`;
  const id = (body: Body) => body.id as string;
  const settings = await expect('GET', '/v1/accounting/settings');
  const business = settings.current_business_day as string;

  // Dates: the year after the last day of every period and fiscal year there is (the fiscal year
  // of the run, split into months), a month of the year after for a period.
  const lastDay = [
    ...(await listAll('/v1/accounting/periods')),
    ...(await listAll('/v1/accounting/fiscal-years')),
  ]
    .map((record) => String(record.end_date))
    .reduce((a, b) => (a > b ? a : b), business);
  const year = Number(lastDay.slice(0, 4)) + 1;

  // An order of the seed's product: three units shipped (to return), three left to pack.
  const productId = records.refs.product_id;
  const order = await expect('POST', '/v1/orders', {
    account_id: records.refs.account_id,
    lines: [{ product_id: productId, quantity: 6, unit_price: 10 }],
  });
  await expect('POST', `/v1/orders/${id(order)}/confirm`, {});
  const line = id((order.lines as Body[])[0]);
  const shipped = 3;
  const pkg = await expect('POST', '/v1/packages', {
    order_id: id(order),
    items: [{ order_item_id: line, quantity: shipped }],
  });
  const rates = (await expect('GET', `/v1/packages/${id(pkg)}/rates`)).data as Body[];
  await expect('POST', `/v1/packages/${id(pkg)}/buy-label`, { rate_object_id: rates[0].rate_object_id });
  await expect('POST', `/v1/packages/${id(pkg)}/ship`, {});
  const leftToPack = 6 - shipped;

  // A sales order line of the seed's kit, for a build to order.
  const kitOrder = await expect('POST', '/v1/orders', {
    account_id: records.refs.account_id,
    lines: [{ product_id: records.refs.kit_product_id, quantity: 3, unit_price: 10 }],
  });
  const kitLine = (kitOrder.lines as Body[])[0];

  // A ledger account of the run's own, edited by the PATCH (the seed's chart stays as it is).
  const edited = await expect('POST', '/v1/accounting/ledger-accounts', {
    code: unique(),
    name: 'Generated account to edit',
    type: 'asset',
    normal_balance: 'debit',
  });
  records.flows['PATCH /v1/accounting/ledger-accounts/{id}'] = {
    paths: [`/v1/accounting/ledger-accounts/${id(edited)}`],
  };

  // A vendor bill of its own for the payment (a paid bill could no longer be voided by the run).
  const bill = await expect('POST', '/v1/vendor-bills', {
    vendor_name: 'Generated bill to pay',
    amount: 500,
    debit_account_id: records.refs.debit_account_id,
  });
  records.flows['POST /v1/vendor-bills/{id}/payments'] = { paths: [`/v1/vendor-bills/${id(bill)}/payments`] };

  // What each vendor bill still owes. (A return's and a deposit match's valid bodies are the
  // flows' own, made by live-records from the records they act on.)
  const amountDue = new Map<string, number>();
  for (const bill of await listAll('/v1/vendor-bills')) amountDue.set(id(bill), Number(bill.amount_due));
  const integrationType = new Map<string, string>();
  for (const integration of await listAll('/v1/integrations'))
    integrationType.set(id(integration), String(integration.type));

  const endsAfterStart: ExampleFix = (body) => {
    const start = new Date(String(body.starts_at ?? new Date().toISOString()));
    return { ...body, ends_at: new Date(start.getTime() + 30 * 86_400_000).toISOString() };
  };
  const uniqueCode: ExampleFix = (body) => ({ ...body, code: unique() });
  // A control role is held by one ledger account per entity and mode; the seed's chart holds them.
  const uniqueLedgerCode: ExampleFix = (body) => ({ ...body, code: unique(), control_role: null });
  const uniqueSku: ExampleFix = (body) => ({ ...body, sku: unique() });
  // The example's first two lines (on two live accounts, see referenceResolver), the first
  // debiting and the second crediting the example's amount.
  const balanced: ExampleFix = (body) => {
    const [first, second] = body.lines as Body[];
    const amount = Number(first.debit_amount) || 100;
    return {
      ...body,
      lines: [
        { ...first, debit_amount: amount, credit_amount: 0 },
        { ...second, debit_amount: 0, credit_amount: amount },
      ],
    };
  };
  const webhookUrl: ExampleFix = (body) => ({
    ...body,
    url: `https://127.0.0.1:9/conformance/${randomUUID()}`,
  });
  // The settings of the sandbox adapter (the example's adapter) have no shop_url; a connector
  // other than the storefront takes no Shopify access token.
  const ownAdapter =
    (type: string | undefined): ExampleFix =>
    (body) => {
      const settings = { ...(body.settings as Body) };
      delete settings.shop_url;
      return {
        ...body,
        ...(type === 'storefront' || type === undefined ? {} : { credentials: { api_key: 'generated' } }),
        settings,
      };
    };
  const fixes = new Map<string, ExampleFix>([
    ['POST /v1/pricing-policies', endsAfterStart],
    ['PATCH /v1/pricing-policies/{id}', endsAfterStart],
    ['POST /v1/accounting/ledger-accounts', uniqueLedgerCode],
    ['PATCH /v1/accounting/ledger-accounts/{id}', uniqueLedgerCode],
    ...['payment-terms', 'units-of-measure', 'sales-channels', 'pricing-levels', 'locations'].map(
      (resource): [string, ExampleFix] => [`PATCH /v1/${resource}/{id}`, uniqueCode],
    ),
    ['PATCH /v1/products/{id}', uniqueSku],
    ['POST /v1/products/{id}/variants', uniqueSku],
    ['PATCH /v1/products/{product_id}/variants/{id}', uniqueSku],
    [
      'POST /v1/accounting/fiscal-years',
      (body) => ({ ...body, name: `FY${year}`, start_date: `${year}-01-01`, end_date: `${year}-12-31` }),
    ],
    [
      'POST /v1/accounting/periods',
      (body) => ({
        ...body,
        name: `${year + 1}-11`,
        start_date: `${year + 1}-11-01`,
        end_date: `${year + 1}-11-30`,
      }),
    ],
    ['POST /v1/journal-entries', (body) => ({ ...balanced(body, {}), entry_date: business })],
    ['PATCH /v1/journal-entries/{id}', (body) => ({ ...balanced(body, {}), entry_date: business })],
    ['POST /v1/recurring-journal-entries', balanced],
    ['PATCH /v1/recurring-journal-entries/{id}', balanced],
    [
      'POST /v1/inventory/adjustments',
      // The live product is not serial-tracked: the change names no serial.
      (body) => {
        const change = { ...body };
        delete change.serial_numbers;
        return change;
      },
    ],
    [
      'POST /v1/inventory/builds',
      (body) => ({
        ...body,
        kit_product_id: records.refs.kit_product_id,
        order_line_id: id(kitLine),
        quantity: Math.min(Number(body.quantity), Number(kitLine.quantity)),
      }),
    ],
    [
      'POST /v1/packages',
      (body) => ({
        ...body,
        order_id: id(order),
        items: [
          {
            // The seed's product is not serial-tracked: the item names no serial.
            ...Object.fromEntries(
              Object.entries((body.items as Body[])[0]).filter(([name]) => name !== 'serial_numbers'),
            ),
            order_item_id: line,
            product_id: productId,
            quantity: Math.min(Number((body.items as Body[])[0].quantity), leftToPack),
          },
        ],
      }),
    ],
    ['POST /v1/webhook_endpoints', webhookUrl],
    ['PATCH /v1/webhook_endpoints/{id}', webhookUrl],
    ['POST /v1/entities/{entity_id}/webhook_endpoints', webhookUrl],
    ['PATCH /v1/entities/{entity_id}/webhook_endpoints/{id}', webhookUrl],
    ['POST /v1/integrations', (body) => ownAdapter(String(body.type))(body, {})],
    ['PATCH /v1/integrations/{id}', (body, ids) => ownAdapter(integrationType.get(ids.id))(body, ids)],
    [
      'POST /v1/vendor-bills/{id}/payments',
      (body, ids) => ({
        ...body,
        payment_date: business,
        amount: Math.min(Number(body.amount), amountDue.get(ids.id) ?? 0),
      }),
    ],
  ]);
  return fixes;
}

function kindOf(name: string): Kind {
  if (name.includes('[read-only key]')) return 'read-only key';
  if (name.includes('[no key]')) return 'no key';
  if (name.includes('[path id not a uuid]')) return 'path id not a uuid';
  if (name.includes('[example]')) return 'example';
  if (name.includes('[other media type]')) return 'other media type';
  if (name.includes('[stale If-Match]')) return 'stale If-Match';
  if (name.includes('[too large]')) return 'too large';
  if (name.includes('[frozen]')) return 'frozen';
  if (name.includes('[out of scope]')) return 'out of scope';
  if (name.includes('[unknown query parameter]')) return 'unknown query parameter';
  if (name.includes('[spent key]')) return 'spent key';
  if (name.includes('[fuzz]') || name.includes('[invalid input]')) return 'invalid';
  return 'valid';
}

function exceptionFor(exceptions: Exception[], execution: Execution): Exception | undefined {
  return exceptions.find(
    (exception) =>
      new RegExp(exception.operation).test(`${execution.method} ${execution.template}`) &&
      exception.kinds.includes(execution.kind) &&
      exception.statuses.includes(execution.status) &&
      (exception.code === undefined || execution.error?.code === exception.code) &&
      (exception.param === undefined || execution.error?.param === exception.param) &&
      (exception.hint === undefined || new RegExp(exception.hint).test(execution.error?.hint ?? '')),
  );
}

/** What the kind of request must answer, before exceptions; undefined when the status is right. */
function expectation(execution: Execution, operation: Operation): string | undefined {
  const { status, kind } = execution;
  if (status >= 500) return `server error ${status}`;
  const write = execution.method !== 'GET';
  switch (kind) {
    case 'valid':
      return status < 300 ? undefined : `valid input refused (${status})`;
    case 'example':
      // The example as generated, which breaks a business rule for the live records (exampleFixes):
      // refused with a documented 4xx, the business error of that rule.
      return status >= 400 ? undefined : `the example that breaks a business rule was accepted (${status})`;
    case 'other media type':
      return status === 415 ? undefined : `a body of another media type answered ${status}, not 415`;
    case 'stale If-Match':
      return status === 412
        ? undefined
        : `an If-Match naming no representation of the record answered ${status}, not 412`;
    case 'unknown query parameter':
      return status === 400 &&
        execution.error?.code === 'parameter_unknown' &&
        execution.error.param === UNKNOWN_QUERY
        ? undefined
        : `a query parameter the operation does not take answered ${status} ${execution.error?.code ?? ''} ${execution.error?.param ?? ''}, not 400 parameter_unknown naming it`;
    case 'out of scope':
      return status === 403 && execution.error?.code === 'insufficient_scope'
        ? undefined
        : `a key without the operation's scope answered ${status} ${execution.error?.code ?? ''}, not 403 insufficient_scope`;
    case 'spent key':
      if (status === 429 && execution.error?.code === 'rate_limited') return undefined;
      // The first request of a new minute is counted (its budget is then spent) and refused for its scope.
      if (
        status === 403 &&
        execution.error?.code === 'insufficient_scope' &&
        execution.rateLimitRemaining === '0'
      )
        return undefined;
      return `a key past its rate limit answered ${status} ${execution.error?.code ?? ''}, not 429 rate_limited`;
    case 'frozen':
      return status === 423 && execution.error?.code === 'entity_frozen'
        ? undefined
        : `a write while the entity is frozen answered ${status} ${execution.error?.code ?? ''}, not 423 entity_frozen`;
    case 'too large':
      return status === 413 ? undefined : `a body over the size limit answered ${status}, not 413`;
    case 'invalid':
      return status >= 400 ? undefined : `invalid input accepted (${status})`;
    case 'path id not a uuid':
      // docs/api-decisions.md: an id that is not a uuid names no record.
      return status === 404 ? undefined : `a path id that is not a uuid answered ${status}, not 404`;
    case 'read-only key':
      if (!operation.secured) return status < 300 ? undefined : `refused without needing a key (${status})`;
      if (write)
        return status === 403 ? undefined : `the read-only key on a write answered ${status}, not 403`;
      return status < 300 ? undefined : `the read-only key on a read answered ${status}`;
    case 'no key':
      if (!operation.secured) return status < 300 ? undefined : `refused without needing a key (${status})`;
      return status === 401 ? undefined : `no key answered ${status}, not 401`;
  }
}

interface NewmanExecution {
  item: { name: string };
  request: { method: string; url: { toString(): string }; body?: { raw?: string } };
  response?: {
    code: number;
    headers: { all(): { key: string; value: string }[] };
    stream?: Buffer;
  };
  assertions?: { assertion: string; error?: { message: string } }[];
}

interface Newman {
  run(
    options: Record<string, unknown>,
    callback: (error: Error | null, summary: { run: { executions: NewmanExecution[] } }) => void,
  ): void;
}

function runNewman(collection: string, environment: Record<string, string>): Promise<NewmanExecution[]> {
  // newman ships no types of its own; the part used here is typed above.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const newman = require('newman') as Newman;
  return new Promise((resolve, reject) =>
    newman.run(
      {
        collection,
        envVar: Object.entries(environment).map(([key, value]) => ({ key, value })),
        reporters: [],
        timeoutRequest: 30_000,
      },
      (error, summary) => (error ? reject(error) : resolve(summary.run.executions)),
    ),
  );
}

const isError = (status: number) => status >= 400;

function judge(
  document: OpenApiDocument,
  executions: NewmanExecution[],
  exceptions: Exception[],
  generated: Map<string, string>,
): { results: Execution[]; excepted: Map<Exception, number>; violations: Execution[]; unchanged: number } {
  const validator = new OpenApiResponseValidator(document);
  // Literal segments win over parameters (`/orders/summary` before `/orders/{id}`).
  const operations = operationsOf(document)
    .map((op) => ({
      ...op,
      params: (op.template.match(/\{/g) ?? []).length,
      pattern: new RegExp(
        `^${op.template
          .split(/\{\w+\}/)
          .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
          .join('[^/]+')}$`,
      ),
    }))
    .sort((a, b) => a.params - b.params);
  const results: Execution[] = [];
  const excepted = new Map<Exception, number>(exceptions.map((e) => [e, 0]));
  const violations: Execution[] = [];
  // The body of each operation's valid request (as sent, and as Portman generated it before
  // exampleFixes made it valid). An invalid-input variation that leaves it as it
  // was (Portman removes or lengthens a field of an object the example does not send, such as
  // bank_account in a card payment method's body), or that leaves out a body field the schema
  // does not require (leavesOutOptional), or that sets a "property" named after a schema keyword
  // (namesSchemaKeyword), sends a valid request: it is counted, not judged.
  const validBodies = new Map<string, string>();
  let unchanged = 0;
  for (const run of executions) {
    const url = run.request.url.toString();
    const pathname = new URL(url).pathname;
    const operation = operations.find((op) => op.method === run.request.method && op.pattern.test(pathname));
    const template = operation?.template ?? pathname;
    const kind = kindOf(run.item.name);
    const sentBody = run.request.body?.raw ?? '';
    if (kind === 'valid' && operation) validBodies.set(`${operation.method} ${operation.template}`, sentBody);
    if (
      kind === 'invalid' &&
      operation &&
      run.item.name.includes('[invalid input]') &&
      ((sentBody !== '' &&
        (sameJson(sentBody, validBodies.get(`${operation.method} ${operation.template}`)) ||
          sameJson(sentBody, generated.get(`${operation.method} ${operation.template}`)))) ||
        leavesOutOptional(document, operation.method, operation.template, run.item.name) ||
        namesSchemaKeyword(run.item.name) ||
        queryWithinMaxLength(document, operation.method, operation.template, run.item.name, url))
    ) {
      unchanged++;
      continue;
    }
    const base = {
      kind,
      name: run.item.name,
      method: run.request.method,
      url,
      template,
      operationId: operation?.operationId ?? '?',
    };
    if (!run.response) {
      const execution = { ...base, status: 0, problems: ['no response'] };
      results.push(execution);
      violations.push(execution);
      continue;
    }
    const headers: Record<string, string> = {};
    for (const { key, value } of run.response.headers.all()) headers[key.toLowerCase()] = value;
    const text = run.response.stream ? run.response.stream.toString('utf8') : '';
    let body: unknown = undefined;
    if (text && (headers['content-type'] ?? '').includes('json')) {
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
    }
    const error = body as { code?: string; param?: string; hint?: string } | undefined;
    const answer =
      isError(run.response.code) && error && typeof error === 'object'
        ? [error.code, error.param, error.hint].filter(Boolean).join(' | ')
        : undefined;
    const execution: Execution = {
      ...base,
      status: run.response.code,
      answer,
      error: answer === undefined ? undefined : error,
      rateLimitRemaining: headers['ratelimit-remaining'],
      problems: [],
    };
    if (!operation) execution.problems.push('the request matches no documented operation');
    else {
      execution.problems.push(
        ...validator.problems(run.request.method, url, { status: execution.status, headers, body, text })
          .problems,
      );
      // Portman's contract tests describe the success response.
      if (execution.status < 300)
        for (const assertion of run.assertions ?? [])
          if (assertion.error)
            execution.problems.push(`Portman: ${assertion.assertion}: ${assertion.error.message}`);
      const wrong = expectation(execution, operation);
      if (wrong) {
        const exception = exceptionFor(exceptions, execution);
        if (exception) excepted.set(exception, (excepted.get(exception) ?? 0) + 1);
        else execution.problems.push(wrong);
      }
    }
    results.push(execution);
    if (execution.problems.length) violations.push(execution);
  }
  return { results, excepted, violations, unchanged };
}

const SCHEMA_KEYWORDS = new Set(['propertyNames', 'additionalProperties', 'patternProperties']);

/**
 * Whether a variation's field path names a JSON Schema keyword as if it were a property: Portman
 * reads the `propertyNames` of a free object (the metadata key rule) as a property of that name,
 * so its "too short" variation sends `metadata: { "propertyNames": "" }`, a valid metadata change.
 */
function namesSchemaKeyword(name: string): boolean {
  const path = /\[[^\]]* ([\w.[\]]+)\]$/.exec(name)?.[1];
  return path !== undefined && path.split('.').some((segment) => SCHEMA_KEYWORDS.has(segment));
}

/**
 * Whether a `[required <field>]` variation leaves out a top-level body field that the operation's
 * body schema does not require. Portman takes the `required` inside a body's `if` (the condition of
 * a cross-field rule, such as "with carrier usps, service is one of ...") for the body's own, so
 * it sends a request without that optional field as invalid input.
 */
function leavesOutOptional(
  document: OpenApiDocument,
  method: string,
  template: string,
  name: string,
): boolean {
  const field = /\[required (\w+)\]$/.exec(name)?.[1];
  if (!field) return false;
  const operation = document.paths[template]?.[method.toLowerCase()] as
    { requestBody?: { content?: Record<string, { schema?: { $ref?: string } }> } } | undefined;
  let schema = operation?.requestBody?.content?.['application/json']?.schema as
    { $ref?: string; properties?: Record<string, unknown>; required?: string[] } | undefined;
  if (schema?.$ref) schema = document.components?.schemas?.[schema.$ref.split('/').pop()!] as typeof schema;
  if (!schema?.properties || !(field in schema.properties)) return false;
  return !(schema.required ?? []).includes(field);
}

/**
 * Whether a `[maximum length <param>]` variation of a query parameter sent a value within the
 * parameter's maxLength (counted in code points, as JSON Schema counts): Portman meant it to be
 * one character too long, but what reached the server is judged. A value of Portman's once arrived
 * at 117 characters for a limit of 120; what shortened it was not found, so the sent URL decides.
 */
function queryWithinMaxLength(
  document: OpenApiDocument,
  method: string,
  template: string,
  name: string,
  url: string,
): boolean {
  const param = /\[maximum length (\w+)\]$/.exec(name)?.[1];
  if (!param) return false;
  const operation = document.paths[template]?.[method.toLowerCase()] as
    { parameters?: { in?: string; name?: string; schema?: { maxLength?: number } }[] } | undefined;
  const maxLength = operation?.parameters?.find((p) => p.in === 'query' && p.name === param)?.schema
    ?.maxLength;
  const sent = new URL(url).searchParams.get(param);
  return maxLength !== undefined && sent !== null && [...sent].length <= maxLength;
}

/**
 * The documented 4xx statuses of the operations: how many (operation, status) pairs there are, how
 * many an answer of the run had, by status the operations none of whose answers had it, and how
 * many operations document each status.
 */
function unansweredStatuses(
  document: OpenApiDocument,
  results: Execution[],
): { documented: number; answered: number; never: Map<number, string[]>; documenting: Map<number, number> } {
  const seen = new Set(results.map((r) => `${r.method} ${r.template} ${r.status}`));
  const never = new Map<number, string[]>();
  const documenting = new Map<number, number>();
  let documented = 0;
  let answered = 0;
  for (const op of operationsOf(document)) {
    const responses = (document.paths[op.template]?.[op.method.toLowerCase()] as { responses?: object })
      ?.responses;
    for (const status of Object.keys(responses ?? {}).map(Number)) {
      if (!(status >= 400 && status < 500)) continue;
      documented++;
      documenting.set(status, (documenting.get(status) ?? 0) + 1);
      if (seen.has(`${op.method} ${op.template} ${status}`)) answered++;
      else never.set(status, [...(never.get(status) ?? []), `${op.method} ${op.template}`]);
    }
  }
  return { documented, answered, never, documenting };
}

/** Whether two JSON texts hold the same value (a text that is not JSON equals only itself). */
function sameJson(a: string, b: string | undefined): boolean {
  if (b === undefined) return false;
  const parse = (text: string) => {
    try {
      return JSON.stringify(JSON.parse(text));
    } catch {
      return text;
    }
  };
  return parse(a) === parse(b);
}

async function main(): Promise<number> {
  const started = Date.now();
  const work = mkdtempSync(path.join(tmpdir(), 'conformance-'));
  // As root the embedded server runs as the user postgres, who must be able to enter it.
  chmodSync(work, 0o755);
  const [port, sandboxPort, dispatcherPort, pgPort] = await Promise.all([
    freePort(),
    freePort(),
    freePort(),
    freePort(),
  ]);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    SANDBOX_PORT: String(sandboxPort),
    DISPATCHER_HEALTH_PORT: String(dispatcherPort),
    EMBEDDED_PG_DIR: path.join(work, 'postgres'),
    EMBEDDED_PG_PORT: String(pgPort),
    LOG_LEVEL: 'warn',
    // The run sends a few thousand requests in a minute with one key.
    RATE_LIMIT_PER_MINUTE: '1000000',
    // ... and a few hundred without a key from one address, which is not an attack here.
    AUTH_FAILURES_PER_MINUTE: '1000000',
    AUTH_FAILURE_MIN_MS: '0',
    // The live webhook endpoints the run makes point at 127.0.0.1 (nothing resolves here).
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  };
  // A fresh database every run: the embedded PostgreSQL in the run's own directory.
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  delete env.PUBLIC_BASE_URL;
  delete env.SANDBOX_BASE_URL;
  const origin = `http://127.0.0.1:${port}`;
  const documentFile = path.join(work, 'openapi.json');
  const configFile = path.join(work, 'portman-config.json');
  const collection = path.join(work, 'collection.json');
  // Portman works from the built description while the stack starts (the export needs no
  // database); the served description must then have the same paths and components.
  const generation = (async () => {
    const generated = Date.now();
    await run(process.execPath, [path.join(ROOT, 'dist/scripts/openapi-export.js'), documentFile], work);
    const built = JSON.parse(readFileSync(documentFile, 'utf8')) as OpenApiDocument;
    writeFileSync(configFile, JSON.stringify(portmanConfig(built)));
    await run(
      process.execPath,
      [
        // A larger young generation: the conversion allocates many short-lived objects.
        '--max-semi-space-size=64',
        path.join(ROOT, 'node_modules/@apideck/portman/bin/portman'),
        '--local',
        documentFile,
        '--portmanConfigFile',
        configFile,
        '--postmanConfigFile',
        path.join(CONFIG_DIR, 'openapi-to-postman.json'),
        '--output',
        collection,
        '--baseUrl',
        origin,
        '--ignoreCircularRefs',
        'true',
        '--warn',
        'false',
        '--collectionName',
        'conformance',
      ],
      work,
    );
    if (!existsSync(collection)) throw new Error('portman wrote no collection');
    console.error(`Portman generated the collection in ${((Date.now() - generated) / 1000).toFixed(1)} s`);
    return built;
  })();
  generation.catch(() => undefined);
  const stack = spawn(process.execPath, [path.join(ROOT, 'dist/scripts/start-local.js')], {
    cwd: work,
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    await waitFor(`${origin}/ready`, Date.now() + 300_000, stack);
    const seedFile = path.join(work, '.data/seed.json');
    for (let i = 0; !existsSync(seedFile) && i < 100; i++) await new Promise((r) => setTimeout(r, 100));
    const seed = JSON.parse(readFileSync(seedFile, 'utf8')) as {
      entities: { primary: { id: string; keys: Record<string, string> } };
      fixtures: Record<string, unknown>;
    };
    const document = (await (await fetch(`${origin}/v1/openapi.json`)).json()) as OpenApiDocument;
    const built = await generation;
    for (const part of ['paths', 'components'] as const)
      if (JSON.stringify(document[part]) !== JSON.stringify(built[part]))
        throw new Error(`the served description's ${part} differ from the built one's`);
    const resolved = Date.now();
    const live = await liveIds(origin, seed.entities.primary.keys.live, seed, document);
    const generated = liveCollection(collection, document, live);
    console.error(
      `Live ids for ${Object.keys(live.environment).length} path parameters in ${((Date.now() - resolved) / 1000).toFixed(1)} s; ` +
        `none found for ${live.unresolved.size} operations${live.unresolved.size ? `: ${[...live.unresolved].join(', ')}` : ''}`,
    );
    const ran = Date.now();
    const narrowKeys = await createNarrowKeys(origin, seed.entities.primary);
    const executions = await runNewman(collection, {
      ...narrowKeys,
      baseUrl: origin,
      bearerToken: seed.entities.primary.keys.live,
      readOnlyKey: seed.entities.primary.keys.read_only,
      testKey: seed.entities.primary.keys.test,
      entityId: seed.entities.primary.id,
      ...live.environment,
    });
    console.error(`Newman sent ${executions.length} requests in ${((Date.now() - ran) / 1000).toFixed(1)} s`);
    const exceptions = JSON.parse(readFileSync(path.join(CONFIG_DIR, 'exceptions.json'), 'utf8')) as {
      exceptions: Exception[];
    };
    const { results, excepted, violations, unchanged } = judge(
      document,
      executions,
      exceptions.exceptions,
      generated,
    );
    const operations = operationsOf(document);
    const exercised = new Set(results.map((r) => `${r.method} ${r.template}`));
    const missing = operations.filter((op) => !exercised.has(`${op.method} ${op.template}`));
    const byKind = new Map<Kind, number>();
    for (const r of results) byKind.set(r.kind, (byKind.get(r.kind) ?? 0) + 1);
    const unused = [...excepted].filter(([, n]) => n === 0).map(([e]) => e);
    if (process.env.CONFORMANCE_REPORT)
      writeFileSync(process.env.CONFORMANCE_REPORT, JSON.stringify(results, null, 1));

    for (const v of violations.slice(0, 200))
      console.error(
        `VIOLATION ${v.kind}: ${v.method} ${v.template} → ${v.status} ${v.answer ?? ''} (${v.name})\n  - ${v.problems.join('\n  - ')}\n  sent: ${v.url.slice(0, 400)}`,
      );
    if (violations.length > 200) console.error(`... and ${violations.length - 200} more violations`);
    for (const op of missing) console.error(`NOT EXERCISED: ${op.method} ${op.template}`);
    // Each operation has one valid request: the operations it brought to a success, and the answer
    // of those it did not (each excepted with its reason, or a violation above).
    const valid = results.filter((r) => r.kind === 'valid');
    const unreached = valid.filter((r) => r.status >= 300 || r.status === 0);
    for (const r of unreached)
      console.log(`NO 2XX: ${r.method} ${r.template} → ${r.status} ${r.answer?.slice(0, 160) ?? ''}`);
    for (const e of unused)
      console.error(`UNUSED EXCEPTION: ${e.operation} ${e.kinds.join(',')} ${e.statuses.join(',')}`);
    // The documented 4xx statuses of each operation no answer of the run had, by status.
    const statuses = unansweredStatuses(document, results);
    for (const [status, ops] of [...statuses.never].sort(([a], [b]) => a - b))
      console.log(
        ops.length === statuses.documenting.get(status)
          ? `NEVER ANSWERED ${status}: on none of the ${ops.length} operations documenting it`
          : `NEVER ANSWERED ${status} (${ops.length} of ${statuses.documenting.get(status)} operations documenting it): ${ops.join(', ')}`,
      );
    console.log(
      [
        `operations: ${operations.length - missing.length} of ${operations.length} exercised`,
        `requests: ${results.length} (${[...byKind].map(([k, n]) => `${k} ${n}`).join(', ')})`,
        `valid requests that reached 2xx: ${valid.length - unreached.length} of ${operations.length} operations`,
        `invalid-input variations that left the valid request unchanged (not judged): ${unchanged}`,
        `documented 4xx statuses answered: ${statuses.answered} of ${statuses.documented} (operation, status) pairs` +
          ` (${[...statuses.never].map(([status, ops]) => `${status} never on ${ops.length}`).join(', ')})`,
        `exceptions applied: ${[...excepted.values()].reduce((a, b) => a + b, 0)} answers under ${excepted.size - unused.length} of ${excepted.size} listed exceptions`,
        `5xx: ${results.filter((r) => r.status >= 500).length}`,
        `violations: ${violations.length}`,
        `wall time: ${((Date.now() - started) / 1000).toFixed(1)} s`,
      ].join('\n'),
    );
    const failed = violations.length > 0 || missing.length > 0;
    console.log(failed ? 'conformance: FAILED' : 'conformance: passed');
    return failed ? 1 : 0;
  } finally {
    stack.kill('SIGTERM');
    await new Promise((resolve) => (stack.exitCode !== null ? resolve(null) : stack.once('exit', resolve)));
    rmSync(work, { recursive: true, force: true });
  }
}

if (require.main === module) {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
