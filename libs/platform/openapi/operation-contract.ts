import type { OpenAPIObject } from '@nestjs/swagger';
import { ERROR_CATALOG, ErrorCode } from '../errors/error-catalog';
import { ALLOWED_WHILE_FROZEN_EXTENSION } from '../auth/mutation-gate';
import { IDEMPOTENCY_KEY_RULE } from '../http/idempotency/idempotency-key';

type Schema = Record<string, unknown> & { $ref?: string; properties?: Record<string, Schema> };
interface MediaType {
  schema?: Schema;
  example?: unknown;
}
interface Response {
  description: string;
  content?: Record<string, MediaType>;
  headers?: Record<string, unknown>;
}
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: Schema;
  description?: string;
  $ref?: string;
}
export interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  deprecated?: boolean;
  security?: unknown[];
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, MediaType>; required?: boolean };
  responses: Record<string, Response>;
}

export const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** Every operation of the description with its path and method. */
export function* operationsOf(
  document: OpenAPIObject,
): Generator<{ path: string; method: string; operation: Operation }> {
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of HTTP_METHODS) {
      const operation = (item as Record<string, Operation | undefined>)[method];
      if (operation) yield { path, method, operation };
    }
  }
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const refName = (schema: Schema | undefined) => schema?.$ref?.split('/').pop();
const jsonSchema = (response: Response | undefined) => response?.content?.['application/json']?.schema;

/** A response header whose value is a whole number (of requests or seconds). */
const countHeader = (description: string, example: number) => ({
  description,
  schema: { type: 'integer', example },
});

/** The contract's response headers (request id, rate limit, ETag, idempotent replay). */
export const RESPONSE_HEADERS = {
  'Request-Id': {
    description: 'Identifier of this request (also `request_id` in error bodies); quote it to support.',
    schema: { type: 'string', example: 'req_8fK2mQ4b1c9f0e2d4a6b8c7e' },
  },
  'RateLimit-Limit': countHeader('Requests per minute this API key may make.', 100),
  'RateLimit-Remaining': countHeader('Requests left in the current window.', 99),
  'RateLimit-Reset': countHeader('Seconds until the window resets.', 42),
  'Retry-After': countHeader('Seconds to wait before retrying.', 42),
  ETag: {
    description:
      'Weak validator of the representation (`W/"<version>"`); send it in If-Match or If-None-Match.',
    schema: { type: 'string', example: 'W/"3f1e2b4c5d6e7f80"' },
  },
  'Idempotent-Replayed': {
    description:
      'Present (`true`) when this is the stored response of an earlier request with the same Idempotency-Key.',
    schema: { type: 'string', enum: ['true'], example: 'true' },
  },
} as const;

/** The contract's request headers (components.parameters). */
const REQUEST_HEADERS: Record<string, Parameter> = {
  IdempotencyKey: {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description:
      '1 to 255 characters, at least one of them not white space (an empty key is 400 parameter_invalid, a longer one 400 idempotency_key_too_long). A retry with the same key, method, path and body within 24 hours gets the first response (marked Idempotent-Replayed); a different method, path or body is 400 idempotency_key_reused; a concurrent one 409 idempotency_key_in_use.',
    schema: { type: 'string', ...IDEMPOTENCY_KEY_RULE, example: 'order-2026-11-23-0001' },
  },
  IfMatch: {
    name: 'If-Match',
    in: 'header',
    required: false,
    description:
      "The ETag the record's GET answered (for an order line or a tag attachment, that of the order, product or account it belongs to); the change is refused with 412 precondition_failed if the record changed since.",
    schema: { type: 'string', example: 'W/"3f1e2b4c5d6e7f80"' },
  },
  IfNoneMatch: {
    name: 'If-None-Match',
    in: 'header',
    required: false,
    description: 'The ETag you hold; 304 Not Modified with no body when it is still current.',
    schema: { type: 'string', example: 'W/"3f1e2b4c5d6e7f80"' },
  },
  FreezeToken: {
    name: 'X-Freeze-Token',
    in: 'header',
    required: false,
    description:
      'While the entity is frozen for cutover, a key with migrations:write passes the freeze by sending the token that the freeze returned.',
    schema: { type: 'string', example: 'frz_9c2b7e1f' },
  },
};

/** The codes of one status, with a sentence about when each status happens. */
const ERROR_STATUSES: Record<string, string> = {
  '400': 'Invalid request: a field, query parameter, expand[] entry or Idempotency-Key is wrong.',
  '401': 'Missing, malformed, unknown, expired or revoked API key.',
  '403': 'The key lacks a scope, names another entity, or calls from outside its IP allowlist.',
  '404': 'No such record for this entity and mode.',
  '409':
    'A conflict: the record is in a status that does not allow this, a duplicate, or a request with the same Idempotency-Key still running.',
  '412': 'If-Match does not match the current ETag: the record changed since it was read.',
  '413': 'The body is over 1 MiB.',
  '415': 'The body is not application/json.',
  '422': 'A business rule refuses the request; `param` names the field at fault when there is one.',
  '423': 'The entity is frozen for cutover and no valid X-Freeze-Token was sent.',
  '429': 'Per-key rate limit exceeded; wait Retry-After seconds.',
  '500':
    'An unexpected failure; the body never carries a stack trace. Safe to retry with the same Idempotency-Key.',
  '501': 'Not implemented for this connector.',
  '503': 'A dependency (database, queue) is unavailable; retry later.',
};

const codesOf = (status: string): ErrorCode[] =>
  (Object.keys(ERROR_CATALOG) as ErrorCode[]).filter((code) => String(ERROR_CATALOG[code].status) === status);

/** Whether the mutation gates (the cutover freeze) let the operation through (`AllowWhileFrozen`). */
const allowedWhileFrozen = (operation: Operation) =>
  (operation as unknown as Record<string, unknown>)[ALLOWED_WHILE_FROZEN_EXTENSION] === true;

/** The error statuses an operation can answer with, from its method and path. */
function errorStatuses(method: string, path: string, operation: Operation, isPublic: boolean): string[] {
  const statuses = ['400'];
  if (!isPublic) statuses.push('401', '403');
  if (/\{[^}]+\}/.test(path)) statuses.push('404');
  const mutation = method !== 'get';
  if (mutation) statuses.push('409');
  if (method === 'patch' || method === 'delete') statuses.push('412');
  if (operation.requestBody) statuses.push('413', '415');
  if (mutation) statuses.push('422');
  if (mutation && !allowedWhileFrozen(operation)) statuses.push('423');
  if (!isPublic) statuses.push('429');
  statuses.push('500', '503');
  return statuses;
}

const errorExample = (code: ErrorCode) => ({
  error: code,
  code,
  type: ERROR_CATALOG[code].type,
  hint: 'A sentence that says what to change.',
  request_id: 'req_8fK2mQ4b1c9f0e2d4a6b8c7e',
});

/** The list envelope around an item schema, as a named component. */
function listSchemaFor(document: OpenAPIObject, item: Schema, fallbackName: string): Schema {
  const itemName = refName(item);
  const name = `${(itemName ?? fallbackName).replace(/Response$/, '')}List`;
  const schemas = document.components!.schemas!;
  if (!schemas[name]) {
    schemas[name] = {
      type: 'object',
      description: `A page of ${itemName ?? fallbackName} records, newest first.`,
      required: ['object', 'data', 'has_more', 'url'],
      properties: {
        object: { type: 'string', enum: ['list'], example: 'list' },
        data: { type: 'array', items: item },
        has_more: { type: 'boolean', example: false, description: 'Whether another page follows.' },
        url: { type: 'string', example: '/v1/...', description: 'The list path, without the query.' },
        total_count: { type: 'integer', minimum: 0, description: 'Only with include_count=true.' },
      },
    };
  }
  return ref(name);
}

const isListEnvelope = (schema: Schema | undefined): schema is Schema =>
  !!schema && !schema.$ref && !!schema.properties?.data && !!schema.properties?.has_more;

/**
 * Success responses with a schema everywhere: a list operation documented without one gets the
 * list envelope of the item that the collection's create or retrieve operation returns; an inline
 * list envelope becomes a named `<Item>List` component; a DELETE without one gets DeletedObject.
 * Returns the operations left without a schema.
 */
export function completeSuccessSchemas(document: OpenAPIObject): string[] {
  const schemas = document.components!.schemas!;
  schemas.DeletedObject = schemas.DeletedObject ?? {
    type: 'object',
    description: 'The answer of a DELETE.',
    required: ['id', 'object', 'deleted'],
    properties: {
      id: { type: 'string', format: 'uuid', example: '01968c1e-5b7a-7cc3-9d2a-3f1e2b4c5d6e' },
      object: { type: 'string', example: 'tag', description: 'The type of the deleted record.' },
      deleted: { type: 'boolean', enum: [true], example: true },
    },
  };
  const paths = document.paths as Record<string, Record<string, Operation | undefined>>;
  const itemOf = (path: string): Schema | undefined => {
    // The retrieve's schema first: a create may answer more (a webhook endpoint's secret).
    for (const [other, item] of Object.entries(paths)) {
      if (!other.startsWith(`${path}/{`) || other.slice(path.length + 1).includes('/')) continue;
      const one = jsonSchema(item.get?.responses['200']);
      if (one?.$ref) return one;
    }
    const fromCreate = jsonSchema(paths[path]?.post?.responses['201']);
    return fromCreate?.$ref ? fromCreate : undefined;
  };
  const missing: string[] = [];
  for (const { path, method, operation } of operationsOf(document)) {
    for (const [status, response] of Object.entries(operation.responses)) {
      if (!status.startsWith('2')) continue;
      const schema = jsonSchema(response);
      // A cursor-paginated operation answers the list envelope, whatever array its controller declared.
      const paginated = (operation.parameters ?? []).some((p) => p.name === 'starting_after');
      if (paginated && schema?.type === 'array' && (schema.items as Schema | undefined)?.$ref) {
        response.content!['application/json'].schema = listSchemaFor(document, schema.items as Schema, '');
        continue;
      }
      if (isListEnvelope(schema)) {
        const items = (schema.properties!.data as { items?: Schema }).items;
        if (items?.$ref) response.content!['application/json'].schema = listSchemaFor(document, items, '');
        continue;
      }
      if (schema) continue;
      let found: Schema | undefined;
      if (method === 'delete') found = ref('DeletedObject');
      else if (method === 'get') {
        const item = itemOf(path);
        if (item) found = listSchemaFor(document, item, '');
      }
      if (found) {
        response.content = { 'application/json': { schema: found } };
      } else if (status !== '204') {
        missing.push(`${method.toUpperCase()} ${path} ${status}`);
      }
    }
  }
  return missing;
}

/**
 * Declares every `{name}` of a path as a path parameter (routes under `/entities/{entity_id}/`
 * declare only their own `:id` in the controller).
 */
export function declarePathParameters(document: OpenAPIObject): void {
  for (const { path, operation } of operationsOf(document)) {
    const names = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
    const declared = new Set((operation.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name));
    const added: Parameter[] = names
      .filter((name) => !declared.has(name))
      .map((name) => ({
        name,
        in: 'path',
        required: true,
        schema: { type: 'string', ...(name.endsWith('id') ? { format: 'uuid' } : {}) },
        description: name === 'entity_id' ? 'The entity; must be the API key’s own entity.' : undefined,
      }));
    for (const parameter of added) if (parameter.description === undefined) delete parameter.description;
    operation.parameters = [...added, ...(operation.parameters ?? [])];
    for (const parameter of operation.parameters) {
      // The entity's id is the key's own entity (403 otherwise), not a record looked up.
      if (parameter.in !== 'path' || !isIdName(parameter.name) || parameter.name === 'entity_id') continue;
      const schema = (parameter.schema ?? {}) as { type?: string; format?: string };
      if (schema.type !== 'string' || (schema.format && schema.format !== 'uuid')) continue;
      schema.format = 'uuid';
      if (!(parameter.description ?? '').includes(NOT_A_UUID))
        parameter.description = [parameter.description, NOT_A_UUID].filter(Boolean).join(' ');
    }
  }
}

/** `id` and `..._id`: the path parameters that name a record by its uuid. */
const isIdName = (name: string) => name === 'id' || name.endsWith('_id');

const NOT_A_UUID = 'A value that is not a uuid names no record: 404 `not_found`.';

/**
 * Every operation's error responses (the flat ErrorEnvelope, the codes of each status listed),
 * response headers, and the request headers that apply to it. `isPublic`: operations reachable
 * without a key.
 */
export function addErrorsAndHeaders(
  document: OpenAPIObject,
  isPublic: (operation: Operation) => boolean,
): void {
  const components = document.components!;
  components.headers = {
    ...(components.headers ?? {}),
    ...(RESPONSE_HEADERS as unknown as NonNullable<typeof components.headers>),
  };
  components.parameters = {
    ...(components.parameters ?? {}),
    ...(REQUEST_HEADERS as unknown as NonNullable<typeof components.parameters>),
  };
  components.responses = components.responses ?? {};
  const used = new Set<string>();
  for (const { path, method, operation } of operationsOf(document)) {
    for (const status of errorStatuses(method, path, operation, !operation.security?.length))
      used.add(status);
  }
  // A status a controller documented with a sentence only (501 on listing sync, ...) gets the envelope too.
  for (const { operation } of operationsOf(document)) {
    for (const [status, response] of Object.entries(operation.responses)) {
      if (Number(status) >= 400 && !response.content && ERROR_STATUSES[status]) used.add(status);
    }
  }
  for (const [status, description] of Object.entries(ERROR_STATUSES)) {
    if (!used.has(status)) continue;
    const codes = codesOf(status);
    components.responses[`Error${status}`] = {
      description: `${description} Codes: ${codes.map((c) => `\`${c}\``).join(', ')}.`,
      // Rate-limit headers are on every answer to a recognised key, errors after the key check included;
      // a replayed error (stored because its handler ran) carries Idempotent-Replayed.
      headers: {
        'Request-Id': { $ref: '#/components/headers/Request-Id' },
        ...(status === '429' || status === '503'
          ? { 'Retry-After': { $ref: '#/components/headers/Retry-After' } }
          : {}),
        'RateLimit-Limit': { $ref: '#/components/headers/RateLimit-Limit' },
        'RateLimit-Remaining': { $ref: '#/components/headers/RateLimit-Remaining' },
        'RateLimit-Reset': { $ref: '#/components/headers/RateLimit-Reset' },
        'Idempotent-Replayed': { $ref: '#/components/headers/Idempotent-Replayed' },
      },
      content: {
        'application/json': { schema: ref('ErrorEnvelope'), example: errorExample(codes[0]) },
      },
    };
  }
  const header = (name: keyof typeof RESPONSE_HEADERS) => ({ $ref: `#/components/headers/${name}` });
  const param = (name: keyof typeof REQUEST_HEADERS) =>
    ({ $ref: `#/components/parameters/${name}` }) as Parameter;
  for (const { path, method, operation } of operationsOf(document)) {
    const open = isPublic(operation);
    const mutation = method !== 'get';
    const rateLimited = open
      ? {}
      : {
          'RateLimit-Limit': header('RateLimit-Limit'),
          'RateLimit-Remaining': header('RateLimit-Remaining'),
          'RateLimit-Reset': header('RateLimit-Reset'),
        };
    for (const [status, response] of Object.entries(operation.responses)) {
      if (!status.startsWith('2')) continue;
      response.headers = {
        ...(response.headers ?? {}),
        'Request-Id': header('Request-Id'),
        ...rateLimited,
        ...(method === 'get' && status === '200' ? { ETag: header('ETag') } : {}),
        ...(mutation ? { 'Idempotent-Replayed': header('Idempotent-Replayed') } : {}),
      };
    }
    if (method === 'get' && !open) {
      operation.responses['304'] = {
        description: 'Not modified: the If-None-Match ETag is current. No body.',
        headers: { 'Request-Id': header('Request-Id'), ETag: header('ETag'), ...rateLimited },
      };
    }
    const declared = Object.keys(operation.responses).filter(
      (status) => Number(status) >= 400 && !operation.responses[status].content && ERROR_STATUSES[status],
    );
    for (const status of new Set([...errorStatuses(method, path, operation, open), ...declared])) {
      const existing = operation.responses[status];
      const shared = { $ref: `#/components/responses/Error${status}` } as unknown as Response;
      if (!existing || !existing.content) {
        // A status the controller documented with a sentence only keeps the sentence in the description.
        if (existing?.description) {
          operation.description =
            `${operation.description ?? operation.summary ?? ''}\n\n${status}: ${existing.description}`.trim();
        }
        operation.responses[status] = shared;
      }
    }
    const headers: Parameter[] = [];
    if (mutation) headers.push(param('IdempotencyKey'));
    if (mutation && !allowedWhileFrozen(operation)) headers.push(param('FreezeToken'));
    if (method === 'patch' || method === 'delete') headers.push(param('IfMatch'));
    if (method === 'get' && !open) headers.push(param('IfNoneMatch'));
    // A header a controller declares itself (`@Headers('idempotency-key')`) is the shared one, in its
    // canonical spelling: header names are case-insensitive, and a client reads the description's.
    const shared = new Set(Object.values(REQUEST_HEADERS).map((h) => h.name.toLowerCase()));
    const own = (operation.parameters ?? []).filter(
      (p) => !(p.in === 'header' && !p.$ref && shared.has(p.name.toLowerCase())),
    );
    const canonical = (operation.parameters ?? [])
      .filter((p) => p.in === 'header' && !p.$ref && shared.has(p.name.toLowerCase()))
      .map(
        (p) =>
          Object.entries(REQUEST_HEADERS).find(([, h]) => h.name.toLowerCase() === p.name.toLowerCase())![0],
      )
      .map((name) => param(name as keyof typeof REQUEST_HEADERS));
    const refs = new Set([...own, ...canonical].map((p) => p.$ref).filter(Boolean));
    operation.parameters = [...own, ...canonical, ...headers.filter((h) => !refs.has(h.$ref))];
  }
}
