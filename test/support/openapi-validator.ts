import Ajv2020, { ErrorObject, ValidateFunction } from 'ajv/dist/2020';
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

/** A JSON pointer segment (RFC 6901). */
const segment = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * The project's one rule beyond the description: a response carries no field its schema does
 * not list. The schema is read as served (no copy, no rewriting); where it lists properties and
 * says nothing of others, a field outside them is reported. In an `anyOf`/`oneOf`, the value is
 * checked against the object branches and passes when one of them lists all its fields.
 */
function undocumentedFields(
  document: OpenApiDocument,
  value: unknown,
  schema: Schema | undefined,
  at: string,
): string[] {
  if (!schema || value === null || typeof value !== 'object') return [];
  const resolved = (s: Schema): Schema => {
    let current = s;
    for (let hops = 0; typeof current.$ref === 'string' && hops < 20; hops++) {
      const found = (current.$ref as string)
        .replace(/^#\//, '')
        .split('/')
        .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
        .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], document);
      current = (found as Schema | undefined) ?? {};
    }
    return current;
  };
  const own = resolved(schema);
  const branches = [...((own.anyOf as Schema[]) ?? []), ...((own.oneOf as Schema[]) ?? [])]
    .map(resolved)
    .filter((b) =>
      Array.isArray(value) ? b.type === 'array' : !!b.properties || b.type === 'object' || !!b.allOf,
    );
  if (branches.length) {
    const results = branches.map((b) => undocumentedFields(document, value, b, at));
    return results.find((r) => r.length === 0) ?? results[0];
  }
  if (Array.isArray(value)) {
    const items = own.items as Schema | undefined;
    return value.flatMap((item, i) => undocumentedFields(document, item, items, `${at}[${i}]`));
  }
  const parts = [own, ...((own.allOf as Schema[]) ?? []).map(resolved)];
  const properties: Record<string, Schema> = Object.assign({}, ...parts.map((p) => p.properties ?? {}));
  const open = parts.some((p) => p.additionalProperties !== undefined && p.additionalProperties !== false);
  const problems: string[] = [];
  for (const [key, field] of Object.entries(value as Record<string, unknown>)) {
    if (properties[key])
      problems.push(...undocumentedFields(document, field, properties[key], `${at}.${key}`));
    else if (!open && Object.keys(properties).length > 0)
      problems.push(`${at} has an undocumented field "${key}"`);
    else if (typeof parts[0].additionalProperties === 'object')
      problems.push(
        ...undocumentedFields(document, field, parts[0].additionalProperties as Schema, `${at}.${key}`),
      );
  }
  return problems;
}

/**
 * Checks responses against the OpenAPI 3.1 description as served: operation, status, headers and
 * the body, validated by plain ajv (JSON Schema 2020-12, ajv-formats) against the document
 * itself, every `$ref` resolved in it; then no field outside its schema (undocumentedFields).
 */
export class OpenApiResponseValidator {
  private readonly ajv: Ajv2020;
  private readonly routes: Route[];
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(private readonly document: OpenApiDocument) {
    // strict: false lets the OpenAPI keywords beside the schemas (paths, example, ...) through.
    this.ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
    addFormats(this.ajv);
    this.ajv.addSchema(document as unknown as Schema, 'openapi.json');
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

  /** The response object and its JSON pointer in the document. */
  private resolve(response: ResponseObject, pointer: string): { response: ResponseObject; pointer: string } {
    if (!response.$ref) return { response, pointer };
    const name = response.$ref.split('/').pop()!;
    const shared = this.document.components?.responses?.[name];
    return shared ? { response: shared, pointer: response.$ref.slice(1) } : { response, pointer };
  }

  /** A validator of the schema at `pointer` in the served document (compiled once). */
  private validatorAt(pointer: string): ValidateFunction {
    let validate = this.compiled.get(pointer);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `openapi.json#${pointer}` });
      this.compiled.set(pointer, validate);
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
      const validate = this.validatorAt('/components/schemas/ErrorEnvelope');
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
    const status = operation.responses[String(res.status)] ? String(res.status) : 'default';
    const documented = operation.responses[status];
    if (!documented) {
      problems.push(
        `status ${res.status} is not documented (documented: ${Object.keys(operation.responses).join(', ')})`,
      );
      return { operation: label, problems };
    }
    const { response, pointer: at } = this.resolve(
      documented,
      `/paths/${segment(route.template)}/${verb}/responses/${segment(status)}`,
    );
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
    const validate = this.validatorAt(`${at}/content/${segment('application/json')}/schema`);
    if (!validate(res.body)) problems.push(...(validate.errors ?? []).map(describe));
    else problems.push(...undocumentedFields(this.document, res.body, schema, 'body'));
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
/** The validator of each document object already seen: a lookup by content serialises the whole document. */
const validatorsOfObjects = new WeakMap<OpenApiDocument, OpenApiResponseValidator>();

/**
 * One validator per distinct document (the apps of a test file usually share one). Asked once per
 * checked response, so a document object seen before is found by identity, not by its content.
 */
export function validatorFor(document: OpenApiDocument): OpenApiResponseValidator {
  let validator = validatorsOfObjects.get(document);
  if (validator) return validator;
  const key = JSON.stringify(document);
  validator = validators.get(key);
  if (!validator) {
    validator = new OpenApiResponseValidator(document);
    validators.set(key, validator);
  }
  validatorsOfObjects.set(document, validator);
  return validator;
}
