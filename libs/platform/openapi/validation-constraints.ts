import type { OpenAPIObject } from '@nestjs/swagger';
import { getMetadataStorage } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import { CrossFieldRule, crossFieldRulesOf, ONE_CURSOR, whenFields } from '../http/cross-field-rules';
import {
  CALENDAR_DATE_PATTERN,
  DATE_TIME_PATTERN,
  EACH_ONE_OF,
  ONE_OF,
  REQUIRED_UNLESS,
} from '../http/dto-fields';
import { NO_NUL_PATTERN } from '../http/json-limits';
import { MONEY_LIMIT } from '../http/money.validator';
import { operationsOf } from './operation-contract';
import { requestSchemaNames } from './request-schemas';

type PropertySchema = Record<string, unknown>;

/** Whether the property may be a string (a `string | null` may still be untyped here). */
const isString = (schema: PropertySchema) =>
  schema.type === 'string' || schema.type === undefined || (schema.type === 'object' && !schema.properties);

/** The values an @IsEnum() rule allows (a TypeScript enum object or a list). */
const enumValues = (entity: unknown): unknown[] =>
  Array.isArray(entity)
    ? entity
    : entity && typeof entity === 'object'
      ? [...new Set(Object.values(entity as object))]
      : [];

/** The format a shared pattern stands for. */
const FORMATS = new Map([
  [CALENDAR_DATE_PATTERN.source, 'date'],
  [DATE_TIME_PATTERN.source, 'date-time'],
]);

/**
 * OpenAPI keywords for the class-validator rules that have one, by rule name; `schema` is the
 * property (or, for an `each` rule, its items) as documented so far.
 */
const KEYWORDS: Record<string, (constraints: unknown[], schema: PropertySchema) => PropertySchema> = {
  // A flat map of strings: its key count, key length and value length.
  isStringMap: ([keys, keyMax, valueMax]) => ({
    maxProperties: keys,
    propertyNames: { minLength: 1, maxLength: keyMax },
    additionalProperties: { type: 'string', maxLength: valueMax },
  }),
  arrayMinSize: ([n]) => ({ minItems: n }),
  arrayMaxSize: ([n]) => ({ maxItems: n }),
  minLength: ([n]) => ({ minLength: n }),
  maxLength: ([n]) => ({ maxLength: n }),
  min: ([n]) => ({ minimum: n }),
  max: ([n]) => ({ maximum: n }),
  isInt: (_, schema) => (schema.type === 'number' || schema.type === undefined ? { type: 'integer' } : {}),
  isNotEmpty: (_, schema) => (isString(schema) ? { minLength: 1 } : {}),
  isUuid: (_, schema) => (isString(schema) ? { format: 'uuid' } : {}),
  isEmail: (_, schema) => (isString(schema) ? { format: 'email' } : {}),
  // An absolute URL of one of the schemes the rule names (IsUrl with require_protocol).
  isUrl: ([options], schema) => {
    const { protocols, require_protocol } = (options ?? {}) as {
      protocols?: string[];
      require_protocol?: boolean;
    };
    if (!isString(schema)) return {};
    return {
      format: 'uri',
      ...(require_protocol && protocols?.length ? { pattern: `^(?:${protocols.join('|')})://` } : {}),
    };
  },
  isIn: ([values]) => (Array.isArray(values) ? { enum: values } : {}),
  // At most `maxDecimalPlaces` decimal places (IsDecimalNumber(), class-validator's IsNumber()):
  // `x-decimal-places` and a sentence, not `multipleOf: 0.0001`, which binary floating point
  // makes common validators refuse for 29.99 (29.99 / 0.0001 is not an integer in a double).
  isNumber: ([options], schema) => {
    const places = (options as { maxDecimalPlaces?: number } | undefined)?.maxDecimalPlaces;
    if (places === undefined) return {};
    const sentence = `At most ${places} decimal places.`;
    const description = typeof schema.description === 'string' ? schema.description : '';
    return {
      'x-decimal-places': places,
      description: description.includes(sentence)
        ? description
        : [description, sentence].filter(Boolean).join(' '),
    };
  },
  // A money amount fits numeric(19,4): its absolute value is below MONEY_LIMIT.
  isMoneyAmount: () => ({ exclusiveMinimum: -MONEY_LIMIT, exclusiveMaximum: MONEY_LIMIT }),
  isEnum: ([entity]) => {
    const values = enumValues(entity);
    return values.length ? { enum: values } : {};
  },
  [EACH_ONE_OF]: ([values]) =>
    typeof values === 'function' ? { enum: [...(values as () => readonly string[])()] } : {},
  [ONE_OF]: ([values]) =>
    typeof values === 'function' ? { enum: [...(values as () => readonly string[])()] } : {},
  matches: ([pattern]) =>
    pattern instanceof RegExp && !pattern.flags
      ? {
          pattern: pattern.source,
          ...(FORMATS.has(pattern.source) ? { format: FORMATS.get(pattern.source) } : {}),
        }
      : {},
};

/** `type: integer` replaces `type: number`; any other keyword the @ApiProperty() already sets is kept. */
function apply(schema: PropertySchema, rule: ValidationMetadata): void {
  const keyword = rule.name ? KEYWORDS[rule.name] : undefined;
  if (!keyword) return;
  for (const [key, value] of Object.entries(keyword(rule.constraints ?? [], schema))) {
    if (value === undefined) continue;
    if (key === 'type' || key === 'description' || schema[key] === undefined) schema[key] = value;
  }
}

/**
 * A RequiredUnless rule on `property`: unless the condition field holds one of its values, the
 * property is required and not null (JSON Schema `if` / `else`; with several such rules, one
 * `allOf` entry each). Tools that do not read `if` see the plain (nullable, optional) field.
 */
function requireUnless(schema: PropertySchema, property: string, rule: ValidationMetadata): void {
  const [field, values, fallback] = (rule.constraints ?? []) as [string, string[], string | undefined];
  const exempt: PropertySchema = { properties: { [field]: { enum: values } } };
  if (fallback === undefined || !values.includes(fallback)) exempt.required = [field];
  const condition = {
    if: exempt,
    // "Present and not null", said without a property schema of its own in the branch (a
    // validator that reads additionalProperties: false as unevaluatedProperties: false would take
    // the branch's properties for the only evaluated ones).
    else: { required: [property], not: { properties: { [property]: { type: 'null' } } } },
  };
  if (schema.if === undefined && schema.allOf === undefined) Object.assign(schema, condition);
  else schema.allOf = [...((schema.allOf as PropertySchema[] | undefined) ?? []), condition];
}

/** The fields a cross-field rule names. */
const ruleFields = (rule: CrossFieldRule): string[] =>
  'fields' in rule
    ? rule.fields
    : rule.kind === 'requires'
      ? [rule.field, ...rule.requires]
      : rule.kind === 'when'
        ? [rule.field, ...whenFields(rule)]
        : rule.kind === 'caller_mode'
          ? [rule.field]
          : rule.kind === 'distinct'
            ? [rule.field]
            : rule.kind === 'not_past'
              ? [rule.field, ...(rule.month ? [rule.month] : [])]
              : [rule.field, rule.than];

/**
 * The JSON Schema of an object whose field `path` obeys `leaf`: a plain field as the object's
 * property; `object.field` (a field of an object field) as that object field's property, the
 * object field itself required when `required` is (a field that must be sent is in an object
 * that is sent).
 */
function atPath(path: string, leaf: PropertySchema, required = false): PropertySchema {
  const [head, ...rest] = path.split('.');
  const inner = rest.length ? atPath(rest.join('.'), leaf, required) : leaf;
  return { ...(required ? { required: [head] } : {}), properties: { [head]: inner } };
}

/**
 * A `when` rule as JSON Schema `if` / `then`: `if` the field is sent with one of its values,
 * `then` the fields it needs are present (and not null), those it excludes absent and the bounded
 * ones within their bounds. A field of an object field (`settings.adapter`) is stated inside it.
 */
function whenCondition(rule: Extract<CrossFieldRule, { kind: 'when' }>): PropertySchema {
  const test = Array.isArray(rule.is)
    ? { enum: rule.is }
    : { exclusiveMinimum: (rule.is as { above: number }).above };
  const properties: Record<string, PropertySchema> = {};
  const nested: PropertySchema[] = [];
  const constrain = (field: string, leaf: PropertySchema, required = false) => {
    if (field.includes('.')) nested.push(atPath(field, leaf, required));
    else properties[field] = leaf;
  };
  for (const field of rule.requires ?? []) constrain(field, { not: { type: 'null' } }, true);
  for (const [field, minimum] of Object.entries(rule.minimum ?? {})) constrain(field, { minimum });
  for (const [field, maximum] of Object.entries(rule.maximum ?? {})) constrain(field, { maximum });
  for (const [field, values] of Object.entries(rule.allowed ?? {})) constrain(field, { enum: values });
  const then: PropertySchema = {};
  const requires = (rule.requires ?? []).filter((field) => !field.includes('.'));
  if (requires.length) then.required = requires;
  if (Object.keys(properties).length) then.properties = properties;
  const forbids = rule.forbids ?? [];
  // A field of an object field that must not be sent: the object, when sent, does not hold it.
  for (const field of forbids.filter((f) => f.includes('.'))) {
    const at = field.lastIndexOf('.');
    nested.push(atPath(field.slice(0, at), { properties: { [field.slice(at + 1)]: false } }));
  }
  const flat = forbids.filter((field) => !field.includes('.'));
  if (flat.length)
    then.not =
      flat.length === 1 ? { required: flat } : { anyOf: flat.map((field) => ({ required: [field] })) };
  if (nested.length === 1 && !Object.keys(then).length) Object.assign(then, nested[0]);
  else if (nested.length) then.allOf = nested;
  return { if: atPath(rule.field, test, true), then };
}

/** A rule as the `x-rules` extension lists it: its kind, fields and `param`, and its sentence. */
const ruleEntry = ({ sentence, ...rule }: CrossFieldRule) => ({ ...rule, description: sentence });

/** The sentences of `rules` appended to a description. */
const withSentences = (description: unknown, rules: CrossFieldRule[]) =>
  [typeof description === 'string' && description ? description : '', ...rules.map((r) => r.sentence)]
    .filter(Boolean)
    .join(' ');

/**
 * A class's cross-field rules on its (object) schema: each in `x-rules` and as a sentence of the
 * description; and in JSON Schema where it can be said: at most one of several fields as `not`
 * of them all `required` (pairwise), a field that needs others as `dependentRequired`, a list
 * whose items differ as `uniqueItems`. "At least
 * one of them" is stated by `x-rules` and the sentence only: an `anyOf` of bare `required` lists
 * on a body makes example-driven generators (the conformance run's Portman) build the body from a
 * branch that has no properties. Comparisons, "exactly one amount above zero" and "equal when both
 * are sent" have no JSON Schema keyword either.
 */
function applyCrossFieldRules(schema: PropertySchema, rules: CrossFieldRule[]): void {
  if (!rules.length) return;
  schema['x-rules'] = rules.map(ruleEntry);
  schema.description = withSentences(schema.description, rules);
  const forbidden: PropertySchema[] = [];
  for (const rule of rules) {
    if (rule.kind === 'exclusive')
      for (const [i, a] of rule.fields.entries())
        for (const b of rule.fields.slice(i + 1)) forbidden.push({ required: [a, b] });
    // A rule that reads stored values when a field is not sent is stated by x-rules only.
    if (rule.kind === 'when' && !rule.stored) {
      const condition = whenCondition(rule);
      if (schema.if === undefined && schema.allOf === undefined) Object.assign(schema, condition);
      else schema.allOf = [...((schema.allOf as PropertySchema[] | undefined) ?? []), condition];
    }
    // A list whose items themselves differ is what `uniqueItems` says.
    if (rule.kind === 'distinct' && rule.key === undefined) {
      const list = (schema.properties as Record<string, PropertySchema> | undefined)?.[rule.field];
      if (list && list.$ref === undefined) list.uniqueItems = true;
    }
    if (rule.kind === 'requires')
      schema.dependentRequired = {
        ...(schema.dependentRequired as Record<string, string[]> | undefined),
        [rule.field]: rule.requires,
      };
  }
  if (forbidden.length && schema.not === undefined)
    schema.not = forbidden.length === 1 ? forbidden[0] : { anyOf: forbidden };
}

/** The rules of a class by property (its ancestors' included). */
function rulesOf(target: new () => unknown): Map<string, ValidationMetadata[]> {
  const byProperty = new Map<string, ValidationMetadata[]>();
  for (const rule of getMetadataStorage().getTargetValidationMetadatas(target, '', true, false)) {
    byProperty.set(rule.propertyName, [...(byProperty.get(rule.propertyName) ?? []), rule]);
  }
  return byProperty;
}

/** Applies a property's rules: plain ones to the property, `each` ones to its items. */
function constrain(property: PropertySchema, rules: ValidationMetadata[]): void {
  for (const rule of rules) {
    if (!rule.each) apply(property, rule);
    else if (property.items && typeof property.items === 'object' && !('$ref' in property.items))
      apply(property.items as PropertySchema, rule);
  }
}

/** Whether `schema` admits a string (`type: string`, possibly nullable or one of several types). */
const admitsString = (schema: PropertySchema) =>
  schema.type === 'string' || (Array.isArray(schema.type) && schema.type.includes('string'));

/**
 * The NUL rule every request string obeys (refused at any depth by the validation pipe), on each
 * free string of `schema` and of its items and alternatives: one that has no enum, format,
 * pattern or const of its own (those already exclude U+0000).
 */
function refuseNul(schema: unknown): void {
  if (!schema || typeof schema !== 'object' || '$ref' in schema) return;
  const node = schema as PropertySchema;
  if (
    admitsString(node) &&
    node.enum === undefined &&
    node.format === undefined &&
    node.pattern === undefined &&
    node.const === undefined
  )
    node.pattern = NO_NUL_PATTERN;
  refuseNul(node.items);
  for (const key of ['anyOf', 'oneOf', 'allOf'])
    if (Array.isArray(node[key])) for (const part of node[key] as unknown[]) refuseNul(part);
  if (node.properties && typeof node.properties === 'object')
    for (const property of Object.values(node.properties as object)) refuseNul(property);
}

/**
 * Writes what the DTOs' class-validator rules check into the description, from those same rules
 * (one source): array sizes, string lengths and non-empty strings, numeric bounds, integers,
 * uuid and email formats, allowed values and patterns, on body schemas and on the query
 * parameters of each operation; and, since the server refuses an unknown body field (400
 * parameter_unknown), `additionalProperties: false` on every schema a request body uses; and the
 * NUL rule (no U+0000 in any string) as a pattern on every free string of a body or query.
 * Header parameters named `...-Id` are uuids. `dtoClasses`: the classes of the routes'
 * parameters; `operationClasses`: the parameter classes of each operation, by operationId.
 */
export function addValidationConstraints(
  document: OpenAPIObject,
  dtoClasses: Iterable<unknown>,
  operationClasses: ReadonlyMap<string, unknown[]> = new Map(),
): OpenAPIObject {
  const storage = getMetadataStorage();
  const targets = (storage as unknown as { validationMetadatas: Map<unknown, ValidationMetadata[]> })
    .validationMetadatas;
  // Classes with rules of their own, and the routes' parameter classes, which may only inherit
  // theirs (PartialType() and OmitType() subclasses).
  const byName = new Map<string, new () => unknown>();
  const schemas = document.components?.schemas ?? {};
  const signature = (target: unknown) =>
    (targets.get(target) ?? [])
      .map((rule) => `${rule.propertyName}:${rule.name ?? rule.type}`)
      .sort()
      .join(',');
  for (const target of [...targets.keys(), ...dtoClasses]) {
    if (typeof target !== 'function' || !target.name) continue;
    // A schema is named by its class: two validated classes of one name would share one schema,
    // and the description would show one class's rules for the other's requests. (One module
    // loaded twice, as a test runner may, makes two identical classes: those are one.)
    const seen = byName.get(target.name);
    if (seen && seen !== target && schemas[target.name] && signature(seen) !== signature(target))
      throw new Error(`two validated classes are named ${target.name}; the description would merge them`);
    byName.set(target.name, target as new () => unknown);
  }
  for (const [name, schema] of Object.entries(document.components?.schemas ?? {})) {
    const target = byName.get(name);
    const properties = (schema as { properties?: Record<string, PropertySchema> }).properties;
    if (!target || !properties) continue;
    applyCrossFieldRules(
      schema as PropertySchema,
      // A rule's field may be one of an object field (`settings.adapter`): that object is a
      // property. A stored rule's condition may be a field of the record the request cannot send
      // (an integration's connector `type` on an update).
      crossFieldRulesOf(target).filter((rule) =>
        ruleFields(rule).every(
          (field) =>
            field.split('.')[0] in properties ||
            (rule.kind === 'when' && rule.stored && field === rule.field),
        ),
      ),
    );
    for (const [key, rules] of rulesOf(target)) {
      if (!properties[key]) continue;
      constrain(properties[key], rules);
      for (const rule of rules)
        if (rule.name === REQUIRED_UNLESS) requireUnless(schema as PropertySchema, key, rule);
    }
  }
  for (const name of requestSchemaNames(document)) {
    const schema = document.components?.schemas?.[name] as PropertySchema | undefined;
    if (schema?.properties && schema.additionalProperties === undefined) schema.additionalProperties = false;
    refuseNul(schema);
  }
  for (const { operation } of operationsOf(document)) {
    const classes = (operation.operationId ? operationClasses.get(operation.operationId) : undefined) ?? [];
    const rules = new Map<string, ValidationMetadata[]>();
    for (const type of classes) {
      if (typeof type !== 'function' || !targets.size) continue;
      for (const [key, list] of rulesOf(type as new () => unknown))
        rules.set(key, [...(rules.get(key) ?? []), ...list]);
    }
    // The query's cross-field rules (those whose fields are all parameters of the operation).
    const queryNames = new Set(
      (operation.parameters ?? []).filter((p) => !p.$ref && p.in === 'query').map((p) => p.name),
    );
    const queryRules = classes
      .flatMap((type) => crossFieldRulesOf(type))
      .filter((rule) => ruleFields(rule).every((field) => queryNames.has(field)));
    // Every list pages through the shared keyset reader, which checks the cursor rule, whatever
    // class declares its query.
    if (!queryRules.includes(ONE_CURSOR) && ruleFields(ONE_CURSOR).every((field) => queryNames.has(field)))
      queryRules.unshift(ONE_CURSOR);
    if (queryRules.length) {
      (operation as unknown as PropertySchema)['x-rules'] = queryRules.map(ruleEntry);
      operation.description = withSentences(operation.description, queryRules);
    }
    for (const parameter of operation.parameters ?? []) {
      const schema = parameter.schema as PropertySchema | undefined;
      if (!schema || parameter.$ref) continue;
      if (parameter.in === 'query') {
        constrain(schema, rules.get(parameter.name.replace(/\[\]$/, '')) ?? []);
        refuseNul(schema);
      }
      if (parameter.in === 'header' && /-id$/i.test(parameter.name) && isString(schema) && !schema.format)
        schema.format = 'uuid';
    }
  }
  return document;
}
