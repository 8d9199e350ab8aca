import type { OpenAPIObject } from '@nestjs/swagger';
import { ExpandableField, MAX_EXPAND_DEPTH } from '../http/expand/expand-registry';
import { operationsOf } from './operation-contract';

type Schema = Record<string, unknown>;
type Fields = ReadonlyMap<string, Record<string, ExpandableField>>;

/** The component schema of each resource by its `object` value (`order` → OrderResponse). */
export function schemasByObject(schemas: Record<string, Schema>): Map<string, string> {
  const pascal = (text: string) =>
    text
      .split(/[._]/)
      .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
      .join('');
  const candidates = new Map<string, string[]>();
  for (const [name, schema] of Object.entries(schemas)) {
    if (!name.endsWith('Response')) continue;
    const object = (schema.properties as Record<string, Schema> | undefined)?.object;
    const value = object?.example ?? (Array.isArray(object?.enum) ? object.enum[0] : undefined);
    if (typeof value !== 'string' || value === 'list') continue;
    candidates.set(value, [...(candidates.get(value) ?? []), name]);
  }
  const size = (name: string) => Object.keys((schemas[name].properties as object | undefined) ?? {}).length;
  const chosen = new Map<string, string>();
  for (const [object, names] of candidates) {
    // The resource's own schema when one is named after it, else the one with the most properties.
    const exact = `${pascal(object)}Response`;
    chosen.set(
      object,
      names.includes(exact) ? exact : [...names].sort((a, b) => size(b) - size(a) || a.localeCompare(b))[0],
    );
  }
  return chosen;
}

/** Every expand[] path a route returning `resource` accepts, breadth first (depth ≤ MAX_EXPAND_DEPTH). */
export function expandPaths(fields: Fields, resource: string): string[] {
  const paths: string[] = [];
  let level: Array<{ path: string; resource: string }> = [{ path: '', resource }];
  for (let depth = 0; depth < MAX_EXPAND_DEPTH && level.length; depth++) {
    const next: typeof level = [];
    for (const { path, resource: type } of level) {
      for (const [name, field] of Object.entries(fields.get(type) ?? {})) {
        const child = path ? `${path}.${name}` : name;
        paths.push(child);
        next.push({ path: child, resource: field.resource });
      }
    }
    level = next;
  }
  return paths;
}

/**
 * What expand[] puts in place, in the resource schemas: a reference field `account` (filled from
 * `account_id`) is `anyOf: [<id string>, <the Account object>]`, present only when expanded (an
 * id that no longer resolves stays the id, or null). And each operation's `expand[]` parameter
 * lists the paths it accepts, or is left out where none expands. `fields`: the declared expandable fields by resource;
 * `resources`: the resource each operation returns, by operationId.
 */
export function describeExpansions(
  document: OpenAPIObject,
  fields: Fields,
  resources: ReadonlyMap<string, string>,
): void {
  const schemas = document.components!.schemas! as Record<string, Schema>;
  const byObject = schemasByObject(schemas);
  const ref = (resource: string) => {
    const name = byObject.get(resource);
    return name ? { $ref: `#/components/schemas/${name}` } : { type: 'object', additionalProperties: true };
  };
  for (const [resource, resourceFields] of [...fields.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    const name = byObject.get(resource);
    const properties = name ? (schemas[name].properties as Record<string, Schema> | undefined) : undefined;
    if (!properties) continue;
    for (const [target, field] of Object.entries(resourceFields)) {
      if (field.kind !== 'reference') continue;
      const expanded = {
        anyOf: [{ type: 'string', format: 'uuid' }, ref(field.resource), { type: 'null' }],
      };
      if (field.source === target) {
        const { description, ...current } = properties[target] ?? {};
        properties[target] = {
          ...(description ? { description } : {}),
          anyOf: [current, ref(field.resource)],
        };
      } else {
        properties[target] = {
          description: `Only with \`expand[]=${target}\`: the ${field.resource.replace(/_/g, ' ')} whose id is in \`${field.source}\` (the id itself, or null, when it does not resolve).`,
          ...expanded,
        };
      }
    }
  }
  for (const { operation } of operationsOf(document)) {
    // A path's other spellings carry a suffixed operationId (markPathSpellings).
    const id = operation.operationId?.replace(/_(deprecated_alias|entityScoped)$/, '');
    const resource = id ? resources.get(id) : undefined;
    const parameter = (operation.parameters ?? []).find((p) => p.name === 'expand[]' && p.in === 'query');
    const items = (parameter?.schema as { items?: Schema } | undefined)?.items;
    if (!parameter || !items) continue;
    const paths = resource ? expandPaths(fields, resource) : [];
    // Where nothing expands, every expand[] value is refused (400 invalid_expand): the parameter is
    // not offered at all.
    if (paths.length) {
      items.enum = paths;
      delete items.pattern;
    } else operation.parameters = operation.parameters!.filter((p) => p !== parameter);
  }
}
