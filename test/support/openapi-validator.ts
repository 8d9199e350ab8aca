import Ajv, { ErrorObject, ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

type Schema = Record<string, unknown>;
interface ResponseObject {
  $ref?: string;
  description?: string;
  content?: Record<string, { schema?: Schema }>;
  headers?: Record<string, unknown>;
}
interface OperationObject {
  operationId?: string;
  responses: Record<string, ResponseObject>;
}
export interface OpenApiDocument {
  paths: Record<string, Record<string, OperationObject>>;
  components?: { schemas?: Record<string, Schema>; responses?: Record<string, ResponseObject> };
}

/** What the validator needs of a response (supertest's Response has all of it). */
export interface CheckedResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  text?: string;
}

/** The contract's headers that an operation must document when it sends them. */
const CONTRACT_HEADERS = [
  'request-id',
  'ratelimit-limit',
  'ratelimit-remaining',
  'ratelimit-reset',
  'retry-after',
  'etag',
  'idempotent-replayed',
];

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

interface Route {
  template: string;
  pattern: RegExp;
  item: Record<string, OperationObject>;
  params: number;
}

/**
 * The validator's copy of a schema: references resolve inside the document, a nullable `allOf`
 * also accepts null, and an object that lists its properties refuses any other (an undocumented
 * field fails). Free-form objects (`additionalProperties` set) keep theirs.
 */
function strict(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(strict);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Schema = {};
  for (const [key, value] of Object.entries(schema as Schema)) {
    if (key === 'example' || key === 'examples') continue;
    if (key === '$ref' && typeof value === 'string') out.$ref = `openapi.json${value}`;
    else if (key === 'properties' && value && typeof value === 'object') {
      out.properties = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, strict(v)]));
    } else out[key] = strict(value);
  }
  if (out.properties && out.additionalProperties === undefined) out.additionalProperties = false;
  // OpenAPI 3.0: `nullable` admits null, an enum included.
  if (out.nullable === true && Array.isArray(out.enum) && !out.enum.includes(null))
    out.enum = [...out.enum, null];
  if (out.nullable === true && Array.isArray(out.allOf)) {
    const { allOf, ...rest } = out;
    delete rest.nullable;
    delete rest.type;
    return { ...rest, anyOf: [{ type: 'null' }, ...(allOf as unknown[])] };
  }
  return out;
}

const pointer = (path: string) =>
  path
    .split('/')
    .slice(1)
    .map((segment) =>
      /^\d+$/.test(segment) ? `[${segment}]` : `.${segment.replace(/~1/g, '/').replace(/~0/g, '~')}`,
    )
    .join('');

const describe = (error: ErrorObject): string => {
  const at = `body${pointer(error.instancePath)}`;
  if (error.keyword === 'additionalProperties')
    return `${at} has an undocumented field "${(error.params as { additionalProperty: string }).additionalProperty}"`;
  if (error.keyword === 'required')
    return `${at} lacks the documented required field "${(error.params as { missingProperty: string }).missingProperty}"`;
  return `${at} ${error.message ?? error.keyword}`;
};

/**
 * An expanded field (expand[]=account) carries the object where the description shows its id:
 * before validation the object is folded back to its id, so the rest of the body is still
 * checked against the documented schema.
 */
function foldExpansions(body: unknown, url: URL): unknown {
  const entries = [...url.searchParams.entries()]
    .filter(([key]) => key === 'expand[]' || /^expand\[\d*\]$/.test(key) || key === 'expand')
    .map(([, value]) => value.split('.'))
    .filter((segments) => segments.every(Boolean))
    // expand[]=account.payment_terms expands `account` too; a prefix that holds an embedded array
    // (expand[]=lines.product) is not itself an expansion.
    .flatMap((segments) =>
      segments.map((_, i) => ({ segments: segments.slice(0, i + 1), prefix: i < segments.length - 1 })),
    )
    .sort((a, b) => b.segments.length - a.segments.length);
  if (!entries.length || !body || typeof body !== 'object') return body;
  const copy = JSON.parse(JSON.stringify(body)) as Record<string, unknown>;
  const fold = (target: unknown, segments: string[], prefix: boolean): void => {
    if (Array.isArray(target)) return target.forEach((item) => fold(item, segments, prefix));
    if (!target || typeof target !== 'object') return;
    const record = target as Record<string, unknown>;
    const [head, ...rest] = segments;
    if (!rest.length) {
      const value = record[head];
      if (prefix && Array.isArray(value)) return;
      const idOf = (v: unknown) => (v && typeof v === 'object' && 'id' in v ? (v as { id: unknown }).id : v);
      // expand[]=category fills `category` from `category_id` (or `tags` from `tag_ids`): the added
      // field goes; an id field expanded in place goes back to its id.
      if (`${head}_id` in record || `${head.replace(/s$/, '')}_ids` in record) delete record[head];
      else if (Array.isArray(value)) record[head] = value.map(idOf);
      else if (value && typeof value === 'object') record[head] = idOf(value);
      return;
    }
    fold(record[head], rest, prefix);
  };
  for (const { segments, prefix } of entries) {
    fold(copy, segments, prefix);
    if (Array.isArray(copy.data) && segments[0] !== 'data') fold(copy.data, segments, prefix);
  }
  return copy;
}

/** Checks responses against an OpenAPI 3.0 description: operation, status, headers and body schema. */
export class OpenApiResponseValidator {
  private readonly ajv: Ajv;
  private readonly routes: Route[];
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(private readonly document: OpenApiDocument) {
    this.ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true });
    addFormats(this.ajv);
    this.ajv.addSchema(
      { components: strict({ schemas: document.components?.schemas ?? {} }) },
      'openapi.json',
    );
    this.routes = Object.entries(document.paths)
      .map(([template, item]) => ({
        template,
        item,
        params: (template.match(/\{/g) ?? []).length,
        pattern: new RegExp(
          `^${template
            .split(/\{[^}]+\}/)
            .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
            .join('[^/]+')}/?$`,
        ),
      }))
      .sort((a, b) => a.params - b.params || b.template.length - a.template.length);
  }

  private route(path: string): Route | undefined {
    const direct = this.routes.find((route) => route.pattern.test(path));
    if (direct) return direct;
    // The deprecated entity-prefixed alias of a flat route is described once, by the flat route.
    const alias = /^\/v1\/entities\/[^/]+(\/.+)$/.exec(path);
    return alias ? this.routes.find((route) => route.pattern.test(`/v1${alias[1]}`)) : undefined;
  }

  private resolve(response: ResponseObject): ResponseObject {
    if (!response.$ref) return response;
    const name = response.$ref.split('/').pop()!;
    return this.document.components?.responses?.[name] ?? response;
  }

  private validatorFor(key: string, schema: Schema): ValidateFunction {
    let validate = this.compiled.get(key);
    if (!validate) {
      validate = this.ajv.compile(strict(schema) as Schema);
      this.compiled.set(key, validate);
    }
    return validate;
  }

  /**
   * The problems of one response (empty when it matches the description). `method` and `url`
   * are the request's; paths outside the description (probes, test-only routes) are not checked
   * except that an error there must still be the documented error envelope.
   */
  problems(method: string, url: string, res: CheckedResponse): { operation: string; problems: string[] } {
    const parsed = new URL(url, 'http://local');
    const path = parsed.pathname;
    const verb = method.toLowerCase();
    const route = this.route(path);
    const operation = route?.item[verb];
    const label = route
      ? `${method.toUpperCase()} ${route.template}${operation?.operationId ? ` (${operation.operationId})` : ''}`
      : `${method.toUpperCase()} ${path}`;
    const problems: string[] = [];
    const envelope = (): void => {
      const validate = this.validatorFor('ErrorEnvelope', { $ref: '#/components/schemas/ErrorEnvelope' });
      if (!validate(res.body)) problems.push(...(validate.errors ?? []).map(describe));
    };
    if (!route || !operation || !METHODS.includes(verb)) {
      // The pipeline (body parsing, the key check) answers before routing, so any error may come
      // first; a success on an undocumented method is a route missing from the description.
      if (route && res.status < 400)
        problems.push(`status ${res.status} on a method the path does not document (expected an error, 405)`);
      if (path.startsWith('/v1/') && res.status >= 400 && res.body && typeof res.body === 'object')
        envelope();
      return { operation: label, problems };
    }
    const documented = operation.responses[String(res.status)] ?? operation.responses.default;
    if (!documented) {
      problems.push(
        `status ${res.status} is not documented (documented: ${Object.keys(operation.responses).join(', ')})`,
      );
      return { operation: label, problems };
    }
    const response = this.resolve(documented);
    const headers = new Set(Object.keys(response.headers ?? {}).map((h) => h.toLowerCase()));
    for (const name of CONTRACT_HEADERS) {
      if (res.headers[name] !== undefined && !headers.has(name))
        problems.push(`header ${name} is sent but not documented for status ${res.status}`);
    }
    // A file response (a label) is checked for a documented media type, not against a JSON schema.
    const mediaType = String(res.headers['content-type'] ?? '')
      .split(';')[0]
      .trim();
    if (mediaType && mediaType !== 'application/json' && response.content?.[mediaType]) {
      return { operation: label, problems };
    }
    const schema = response.content?.['application/json']?.schema;
    const hasBody =
      res.text !== undefined ? res.text.length > 0 : res.body !== undefined && res.body !== null;
    if (!schema) {
      if (
        hasBody &&
        !(typeof res.body === 'object' && res.body && !Object.keys(res.body).length && !res.text)
      )
        problems.push(`a body is sent but status ${res.status} documents none`);
      return { operation: label, problems };
    }
    if (!hasBody) {
      problems.push(`status ${res.status} documents a body but none was sent`);
      return { operation: label, problems };
    }
    const key = `${route.template} ${verb} ${res.status}`;
    const validate = this.validatorFor(key, schema);
    if (!validate(foldExpansions(res.body, parsed))) problems.push(...(validate.errors ?? []).map(describe));
    return { operation: label, problems };
  }

  /** Throws an error naming the operation, the status and each wrong place in the body. */
  assert(method: string, url: string, res: CheckedResponse): void {
    const { operation, problems } = this.problems(method, url, res);
    if (!problems.length) return;
    // The same problem in every item of a list is reported once, at its first item.
    const counts = new Map<string, { first: string; n: number }>();
    for (const problem of problems) {
      const key = problem.replace(/\[\d+\]/g, '[]');
      const seen = counts.get(key);
      if (seen) seen.n++;
      else counts.set(key, { first: problem, n: 1 });
    }
    throw new Error(
      `Response does not match the OpenAPI description: ${operation} answered ${res.status}\n` +
        [...counts.values()]
          .map(({ first, n }) => `  - ${first}${n > 1 ? ` (and ${n - 1} more like it)` : ''}`)
          .join('\n'),
    );
  }
}

const validators = new Map<string, OpenApiResponseValidator>();

/** One validator per distinct document (the apps of a test file usually share one). */
export function validatorFor(document: OpenApiDocument): OpenApiResponseValidator {
  const key = JSON.stringify(document);
  let validator = validators.get(key);
  if (!validator) {
    validator = new OpenApiResponseValidator(document);
    validators.set(key, validator);
  }
  return validator;
}
