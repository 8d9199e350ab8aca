import type { OpenAPIObject } from '@nestjs/swagger';
import { operationsOf } from './operation-contract';

type Schema = Record<string, unknown>;

/** The component schemas a request body uses, directly or nested (properties, items, allOf, ...). */
export function requestSchemaNames(document: OpenAPIObject): Set<string> {
  const schemas = (document.components?.schemas ?? {}) as Record<string, Schema>;
  const names = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    const { $ref } = node as { $ref?: unknown };
    if (typeof $ref === 'string' && $ref.startsWith('#/components/schemas/')) {
      const name = $ref.split('/').pop()!;
      if (names.has(name)) return;
      names.add(name);
      return visit(schemas[name]);
    }
    for (const [key, value] of Object.entries(node)) {
      if (key !== 'example' && key !== 'examples' && key !== 'default') visit(value);
    }
  };
  for (const { operation } of operationsOf(document)) visit(operation.requestBody);
  return names;
}

/** The value in words, for a description. */
const inWords = (value: unknown) => `\`${typeof value === 'string' ? value : JSON.stringify(value)}\``;

/** Moves a schema's `default` into its description ("Default: `20`."). */
function defaultToWords(schema: Schema | undefined): void {
  if (!schema || schema.default === undefined) return;
  const sentence = `Default: ${inWords(schema.default)}.`;
  const description = typeof schema.description === 'string' ? schema.description : '';
  if (!/\bdefault\b/i.test(description))
    schema.description = [description, sentence].filter(Boolean).join(' ');
  delete schema.default;
}

/**
 * A request's defaults are stated in words, not as `default`: code generators read a `default`
 * as "the field is always there" (openapi-typescript with its default settings makes such a
 * field required), which would oblige clients to send what the server fills in itself.
 */
export function describeRequestDefaults(document: OpenAPIObject): void {
  const schemas = (document.components?.schemas ?? {}) as Record<string, Schema>;
  for (const name of requestSchemaNames(document)) {
    for (const property of Object.values((schemas[name]?.properties ?? {}) as Record<string, Schema>)) {
      defaultToWords(property);
    }
  }
  for (const { operation } of operationsOf(document)) {
    for (const parameter of operation.parameters ?? []) {
      defaultToWords(parameter.schema as Schema | undefined);
    }
  }
}
