import type { OpenAPIObject } from '@nestjs/swagger';
import { getMetadataStorage } from 'class-validator';

type Schema = Record<string, unknown>;

/** The JSON type a class-validator rule implies, by rule name. */
const RULE_TYPES: Record<string, string> = {
  isString: 'string',
  isEmail: 'string',
  isUuid: 'string',
  isUUID: 'string',
  isIso8601: 'string',
  isISO8601: 'string',
  isDateString: 'string',
  isHexColor: 'string',
  matches: 'string',
  isUrl: 'string',
  isURL: 'string',
  isIn: 'string',
  isNumber: 'number',
  isNumberString: 'string',
  isDecimal: 'string',
  isPositive: 'number',
  isInt: 'integer',
  isBoolean: 'boolean',
  isObject: 'object',
  isArray: 'array',
};

const typeOfExample = (example: unknown): string | undefined => {
  if (example === undefined || example === null) return undefined;
  if (Array.isArray(example)) return 'array';
  if (typeof example === 'number') return Number.isInteger(example) ? 'number' : 'number';
  if (typeof example === 'string' || typeof example === 'boolean' || typeof example === 'object')
    return typeof example;
  return undefined;
};

/** The rule names class-validator holds for each property of a class. */
function rulesOf(target: new () => unknown): Map<string, Set<string>> {
  const rules = new Map<string, Set<string>>();
  for (const rule of getMetadataStorage().getTargetValidationMetadatas(target, '', true, false)) {
    if (!rule.name || rule.each) continue;
    const set = rules.get(rule.propertyName) ?? new Set<string>();
    set.add(rule.name);
    rules.set(rule.propertyName, set);
  }
  return rules;
}

/**
 * The type of a property that @nestjs/swagger could not see: `string | null` fields reach the
 * metadata as `Object`, so their schema says `type: object` with no properties. The type comes
 * from the property's own keywords (a `format` or a length is a string, a bound a number), then
 * from the class-validator rules of the DTO, then from its example.
 */
function inferType(property: Schema, rules: Set<string> | undefined): string | undefined {
  if (typeof property.format === 'string') return 'string';
  if (property.pattern !== undefined || property.maxLength !== undefined || property.minLength !== undefined)
    return 'string';
  for (const rule of rules ?? []) {
    const type = RULE_TYPES[rule];
    if (type) return type;
  }
  if (property.minimum !== undefined || property.maximum !== undefined) return 'number';
  return typeOfExample(property.example);
}

/** The type a same-named property has in another schema (a response field mirrors its input). */
function typeElsewhere(document: OpenAPIObject, key: string): string | undefined {
  for (const schema of Object.values(document.components?.schemas ?? {})) {
    const property = (schema as { properties?: Record<string, Schema> }).properties?.[key];
    if (
      property &&
      typeof property.type === 'string' &&
      property.type !== 'object' &&
      property.type !== 'array'
    )
      return property.type;
  }
  return undefined;
}

const isUntyped = (property: Schema): boolean =>
  property.type === 'object' && !property.properties && property.additionalProperties === undefined;

/**
 * Gives every property of every component schema a type. A nullable reference keeps its `allOf`
 * without `type: object` beside it; a free-form object says so with `additionalProperties: true`.
 * `classes`: the DTO classes whose validation rules name the types (looked up by schema name).
 * Returns the properties that stay untyped (none in a sound description).
 */
export function typeUntypedProperties(document: OpenAPIObject, classes: Iterable<unknown>): string[] {
  const byName = new Map<string, new () => unknown>();
  const storage = getMetadataStorage() as unknown as { validationMetadatas: Map<unknown, unknown[]> };
  for (const target of [...storage.validationMetadatas.keys(), ...classes]) {
    if (typeof target === 'function' && target.name) byName.set(target.name, target as new () => unknown);
  }
  let leftovers: string[] = [];
  // The second pass types what only a same-named property of another schema, typed by the first, tells.
  for (const borrow of [false, true]) {
    leftovers = [];
    for (const [name, schema] of Object.entries(document.components?.schemas ?? {})) {
      const properties = (schema as { properties?: Record<string, Schema> }).properties ?? {};
      const target = byName.get(name);
      const rules = target ? rulesOf(target) : new Map<string, Set<string>>();
      for (const [key, property] of Object.entries(properties)) {
        // A list of objects whose fields the DTO does not describe is a list of free-form objects.
        const items = property.items as Schema | undefined;
        if (property.type === 'array' && items && !items.$ref && isUntyped(items)) {
          items.additionalProperties = true;
        }
        if (!isUntyped(property)) continue;
        // A nullable reference: `type: object` + `nullable: true` beside the `allOf` is the typed form.
        if (Array.isArray(property.allOf)) continue;
        const type =
          inferType(property, rules.get(key)) ?? (borrow ? typeElsewhere(document, key) : undefined);
        if (!type || type === 'object') {
          if (type === 'object' || (borrow && property.example !== undefined)) {
            property.additionalProperties = true;
            continue;
          }
          leftovers.push(`${name}.${key}`);
          continue;
        }
        property.type = type;
        if (type === 'array' && property.items === undefined) property.items = {};
      }
    }
  }
  return leftovers;
}
