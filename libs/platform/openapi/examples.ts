import type { OpenAPIObject } from '@nestjs/swagger';
import { operationsOf } from './operation-contract';

type Schema = Record<string, unknown>;

const SAMPLE_ID = '01968c1e-5b7a-7cc3-9d2a-3f1e2b4c5d6e';

const byFormat: Record<string, unknown> = {
  uuid: SAMPLE_ID,
  'date-time': '2026-11-20T14:03:12.345Z',
  date: '2026-11-20',
  email: 'billing@acme.example',
  uri: 'https://hooks.acme.example/erp',
  url: 'https://hooks.acme.example/erp',
};

/**
 * An example value built from a schema: its own `example`, else its first enum value or
 * default, else one that satisfies its type, format and bounds. References are followed
 * (once per path, so recursive schemas end).
 */
export function exampleOf(
  document: OpenAPIObject,
  schema: Schema | undefined,
  seen = new Set<string>(),
  known: Map<string, unknown> = new Map(),
  key?: string,
): unknown {
  if (!schema) return undefined;
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.split('/').pop()!;
    if (seen.has(name)) return undefined;
    const target = document.components?.schemas?.[name] as Schema | undefined;
    return exampleOf(document, target, new Set([...seen, name]), known);
  }
  if (schema.example !== undefined) return schema.example;
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  // A property without an example of its own borrows the one a same-named property has elsewhere
  // (update DTOs built with PartialType() lose some); it must still fit this schema's pattern.
  const borrowed = key === undefined ? undefined : known.get(key);
  if (
    borrowed !== undefined &&
    schema.format === undefined &&
    typeof borrowed === typeof exampleOfType(schema.type) &&
    (typeof schema.pattern !== 'string' || new RegExp(schema.pattern).test(String(borrowed)))
  )
    return borrowed;
  for (const key of ['allOf', 'oneOf', 'anyOf']) {
    const parts = schema[key] as Schema[] | undefined;
    // An object's `allOf` of conditions (if / then) adds no properties: its own are the example.
    if (!parts?.length || (key === 'allOf' && schema.properties)) continue;
    if (key !== 'allOf') return exampleOf(document, parts[0], seen, known);
    const merged: Record<string, unknown> = {};
    for (const part of parts) {
      const value = exampleOf(document, part, seen, known);
      if (value && typeof value === 'object' && !Array.isArray(value)) Object.assign(merged, value);
      else if (value !== undefined) return value;
    }
    return merged;
  }
  const properties = schema.properties as Record<string, Schema> | undefined;
  switch (schema.type) {
    case 'string': {
      const format = schema.format as string | undefined;
      if (format && format in byFormat) return byFormat[format];
      const min = (schema.minLength as number | undefined) ?? 0;
      const max = (schema.maxLength as number | undefined) ?? 64;
      return 'example'.padEnd(min, 'x').slice(0, Math.max(max, min));
    }
    case 'integer':
      return Math.max(Number(schema.minimum ?? 1), Math.min(1, Number(schema.maximum ?? 1)));
    case 'number': {
      const min = Number(schema.minimum ?? 0);
      const max = Number(schema.maximum ?? Number.MAX_SAFE_INTEGER);
      return Math.min(Math.max(10, min), max);
    }
    case 'boolean':
      return true;
    case 'array': {
      const item = exampleOf(document, schema.items as Schema | undefined, seen, known);
      const count = Math.max(1, Number(schema.minItems ?? 1));
      return item === undefined ? [] : Array.from({ length: count }, () => item);
    }
    default: {
      if (!properties) return schema.type === 'object' ? {} : undefined;
      const out: Record<string, unknown> = {};
      const required = new Set((schema.required as string[] | undefined) ?? []);
      for (const [key, property] of Object.entries(properties)) {
        const value = exampleOf(document, property, seen, known, key);
        if (value !== undefined) out[key] = value;
        else if (required.has(key) && property.nullable) out[key] = null;
      }
      // Fields that exclude each other (`not` of them all `required`): the example keeps the first.
      const not = schema.not as Schema | undefined;
      const exclusive = not?.required
        ? [not.required]
        : ((not?.anyOf as Schema[] | undefined) ?? []).map((p) => p.required);
      for (const fields of exclusive as (string[] | undefined)[]) {
        if (fields?.every((field) => field in out)) for (const field of fields.slice(1)) delete out[field];
      }
      obeyConditions(schema, out);
      return out;
    }
  }
}

/**
 * An object example changed to obey the schema's `if` / `then` conditions (the `when` cross-field
 * rules): when the condition holds, the fields `then` excludes are left out and the bounded or
 * listed ones take a value `then` allows.
 */
function obeyConditions(schema: Schema, out: Record<string, unknown>): void {
  const parts = [schema, ...((schema.allOf as Schema[] | undefined) ?? [])];
  for (const { if: condition, then } of parts as { if?: Schema; then?: Schema }[]) {
    const tests = Object.entries((condition?.properties ?? {}) as Record<string, Schema>);
    if (!then || tests.length !== 1) continue;
    const [field, test] = tests[0];
    const value = out[field];
    const holds = Array.isArray(test.enum)
      ? test.enum.includes(value)
      : typeof test.exclusiveMinimum === 'number' &&
        typeof value === 'number' &&
        value > test.exclusiveMinimum;
    if (!holds) continue;
    const not = then.not as Schema | undefined;
    const excluded = [
      ...((not?.required as string[] | undefined) ?? []),
      ...((not?.anyOf as Schema[] | undefined) ?? []).flatMap(
        (p) => (p.required as string[] | undefined) ?? [],
      ),
    ];
    for (const name of excluded) delete out[name];
    for (const [name, bound] of Object.entries((then.properties ?? {}) as Record<string, Schema>)) {
      const current = out[name];
      if (typeof current === 'number' && typeof bound.maximum === 'number' && current > bound.maximum)
        out[name] = bound.maximum;
      if (typeof current === 'number' && typeof bound.minimum === 'number' && current < bound.minimum)
        out[name] = bound.minimum;
      if (Array.isArray(bound.enum) && current !== undefined && !bound.enum.includes(current))
        out[name] = bound.enum[0];
    }
  }
}

const exampleOfType = (type: unknown): unknown =>
  type === 'string'
    ? ''
    : type === 'number' || type === 'integer'
      ? 0
      : type === 'boolean'
        ? false
        : undefined;

/** The examples of named properties across all component schemas. */
function knownExamples(document: OpenAPIObject): Map<string, unknown> {
  const known = new Map<string, unknown>();
  for (const schema of Object.values(document.components?.schemas ?? {})) {
    for (const [key, property] of Object.entries(
      (schema as { properties?: Record<string, Schema> }).properties ?? {},
    )) {
      if (property.example !== undefined && property.example !== null && !known.has(key))
        known.set(key, property.example);
    }
  }
  return known;
}

/** Puts an example on every JSON request body and success response that has none. */
export function addExamples(document: OpenAPIObject): void {
  const known = knownExamples(document);
  for (const { operation } of operationsOf(document)) {
    const media = [
      operation.requestBody?.content?.['application/json'],
      ...Object.entries(operation.responses)
        .filter(([status]) => status.startsWith('2'))
        .map(([, response]) => response.content?.['application/json']),
    ];
    for (const content of media) {
      if (!content?.schema || content.example !== undefined) continue;
      const example = exampleOf(document, content.schema, new Set(), known);
      if (example !== undefined) content.example = example;
    }
  }
}
