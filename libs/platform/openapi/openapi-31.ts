import type { OpenAPIObject } from '@nestjs/swagger';

type Schema = Record<string, unknown>;

const NULL = { type: 'null' };

/**
 * One schema in OpenAPI 3.1 (JSON Schema 2020-12) form: `nullable: true` becomes `null` among
 * the types (`type: ['string', 'null']`, a `null` in an enum), and a nullable reference
 * (`allOf: [$ref]` or `$ref`) becomes `anyOf: [{ $ref }, { type: 'null' }]`, which every JSON
 * Schema validator reads as "this object or null".
 */
function nullableTo31(schema: Schema): Schema {
  const { nullable, ...rest } = schema;
  if (nullable !== true) return rest;
  if (typeof rest.$ref === 'string') {
    const { $ref, ...siblings } = rest;
    return { ...siblings, anyOf: [{ $ref }, NULL] };
  }
  if (Array.isArray(rest.allOf) && rest.allOf.length === 1) {
    const { allOf, type: _type, ...siblings } = rest;
    return { ...siblings, anyOf: [allOf[0], NULL] };
  }
  for (const combinator of ['anyOf', 'oneOf'] as const) {
    if (Array.isArray(rest[combinator])) {
      return { ...rest, [combinator]: [...(rest[combinator] as unknown[]), NULL] };
    }
  }
  if (typeof rest.type === 'string') rest.type = [rest.type, 'null'];
  else if (Array.isArray(rest.type) && !rest.type.includes('null')) rest.type = [...rest.type, 'null'];
  if (Array.isArray(rest.enum) && !rest.enum.includes(null)) rest.enum = [...rest.enum, null];
  return rest;
}

/** Keys whose value is a map of schemas by name. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'schemas']);
/** Keys whose value is one schema or a list of them. */
const SCHEMA_KEYS = new Set([
  'schema',
  'items',
  'additionalProperties',
  'not',
  'allOf',
  'anyOf',
  'oneOf',
  'prefixItems',
  'contains',
  'propertyNames',
  'unevaluatedProperties',
]);

function convert(node: unknown, isSchema: boolean): unknown {
  if (Array.isArray(node)) return node.map((item) => convert(item, isSchema));
  if (!node || typeof node !== 'object') return node;
  const source = isSchema ? nullableTo31(node as Schema) : (node as Schema);
  const out: Schema = {};
  for (const [key, value] of Object.entries(source)) {
    if (key === 'example' || key === 'examples' || key === 'default' || key === 'const' || key === 'enum') {
      out[key] = value;
    } else if (SCHEMA_MAPS.has(key) && value && typeof value === 'object' && !Array.isArray(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, s]) => [name, convert(s, true)]));
    } else if (SCHEMA_KEYS.has(key) && typeof value === 'object') {
      out[key] = convert(value, true);
    } else {
      out[key] = convert(value, false);
    }
  }
  return out;
}

/**
 * The description as OpenAPI 3.1: every schema in JSON Schema 2020-12 form (see nullableTo31),
 * so a standard JSON Schema validator (ajv's 2020 dialect) and code generators read it as is.
 */
export function toOpenApi31(document: OpenAPIObject): OpenAPIObject {
  const converted = convert(document, false) as OpenAPIObject;
  converted.openapi = '3.1.0';
  return converted;
}
