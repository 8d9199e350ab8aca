import fc from 'fast-check';

/**
 * fast-check arbitraries derived from the JSON Schemas of an OpenAPI 3.1 description, and the
 * single-constraint violations of a value. Small on purpose: the keywords the served description
 * uses (type, nullable type lists, enum, const, format, pattern, numeric bounds, string lengths,
 * item counts, required, additionalProperties, $ref, allOf, oneOf, anyOf).
 */

export type Schema = {
  $ref?: string;
  type?: string | string[];
  format?: string;
  pattern?: string;
  enum?: unknown[];
  const?: unknown;
  example?: unknown;
  examples?: unknown[];
  default?: unknown;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
  /** The most decimal places a number may have. */
  'x-decimal-places'?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  maxProperties?: number;
  propertyNames?: { minLength?: number; maxLength?: number };
  uniqueItems?: boolean;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  readOnly?: boolean;
  if?: Schema;
  then?: Schema;
  else?: Schema;
  /** Cross-field rules of an object (or, on an operation, of its query). */
  'x-rules'?: Rule[];
};

/** A cross-field rule as the description's `x-rules` states it. */
export interface Rule {
  kind:
    | 'exclusive'
    | 'one_required'
    | 'requires'
    | 'compare'
    | 'one_positive'
    | 'equal'
    | 'when'
    | 'caller_mode'
    | 'not_past'
    | 'distinct';
  fields?: string[];
  field?: string;
  requires?: string[];
  /** A `when` rule: its condition (values of `field`, or a number above), and what it then asks. */
  is?: unknown[] | { above: number };
  forbids?: string[];
  minimum?: Record<string, number>;
  maximum?: Record<string, number>;
  allowed?: Record<string, unknown[]>;
  stored?: boolean;
  op?: '<' | '<=' | '>' | '>=';
  than?: string;
  /**
   * A `distinct` rule: the field of each item of the list `field` that differs from item to item;
   * ending in `[]`, a list in each item whose elements differ across the items; absent, the items
   * themselves differ.
   */
  key?: string;
  /** A `not_past` rule: what `field` holds (an instant, a day, a year with the month `month`). */
  unit?: 'instant' | 'day' | 'month';
  month?: string;
  within_days?: number;
  param: string;
  description: string;
}

type Obj = Record<string, unknown>;

/** The value at `path` (`settings.adapter`: the field of an object field), or undefined. */
export function getPath(value: Obj, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>((v, key) => (v && typeof v === 'object' ? (v as Obj)[key] : undefined), value);
}

/** `value` with `path` set (undefined: left out), object fields on the way copied, not changed. */
function setPath(value: Obj, path: string, to: unknown): void {
  const [head, ...rest] = path.split('.');
  if (!rest.length) {
    if (to === undefined) delete value[head];
    else value[head] = to;
    return;
  }
  const inner = value[head];
  if (to === undefined && (!inner || typeof inner !== 'object')) return;
  const copy: Obj = { ...(inner && typeof inner === 'object' ? (inner as Obj) : {}) };
  setPath(copy, rest.join('.'), to);
  value[head] = copy;
}

/** Whether the condition of a `when` rule holds on `value` (its field sent with a value it names). */
export function whenHolds(rule: Rule, value: Obj): boolean {
  const v = getPath(value, rule.field!);
  if (v === undefined || v === null) return false;
  return Array.isArray(rule.is)
    ? rule.is.includes(v)
    : typeof v === 'number' && v > (rule.is as { above: number }).above;
}

/** The fields the `then` part of a `when` rule constrains. */
const whenFields = (rule: Rule) => [
  ...(rule.requires ?? []),
  ...(rule.forbids ?? []),
  ...Object.keys(rule.minimum ?? {}),
  ...Object.keys(rule.maximum ?? {}),
  ...Object.keys(rule.allowed ?? {}),
];

/**
 * `value` changed to obey a `when` rule: what it needs taken from `full`, what it excludes left
 * out, bounded values brought within bounds. A rule that reads stored values is also obeyed when
 * its field is not sent (the stored value may meet the condition): a needed field is not sent null.
 */
function satisfyWhen(rule: Rule, out: Obj, full: Obj, optional: (f: string) => boolean): void {
  const applies = whenHolds(rule, out) || (rule.stored && getPath(out, rule.field!) === undefined);
  if (!applies) return;
  const sent = whenHolds(rule, out);
  const at = (f: string) => getPath(out, f);
  for (const f of rule.requires ?? [])
    if (at(f) === undefined || at(f) === null) {
      const available = getPath(full, f);
      if (sent && available !== undefined && available !== null) setPath(out, f, available);
      else if (at(f) === null && optional(f)) setPath(out, f, undefined);
    }
  // A field it excludes is left out whenever it may apply (a stored record's condition too).
  for (const f of rule.forbids ?? []) if ((sent || rule.stored) && optional(f)) setPath(out, f, undefined);
  for (const [f, bound] of Object.entries(rule.minimum ?? {}))
    if (typeof at(f) === 'number' && (at(f) as number) < bound) setPath(out, f, bound);
  for (const [f, bound] of Object.entries(rule.maximum ?? {}))
    if (typeof at(f) === 'number' && (at(f) as number) > bound) setPath(out, f, bound);
  // A stored rule whose field is not sent may or may not apply: a value it does not allow is
  // left out (the stored one stays) rather than changed, and one a violation keeps stays as it is.
  for (const [f, values] of Object.entries(rule.allowed ?? {}))
    if (at(f) !== undefined && !values.includes(at(f))) {
      if (sent) setPath(out, f, values[0]);
      else if (optional(f)) setPath(out, f, undefined);
    }
}

const DAY_MS = 86_400_000;
/** The UTC day `days` from today, as YYYY-MM-DD. */
const dayFromToday = (days: number) => new Date(Date.now() + days * DAY_MS).toISOString().slice(0, 10);

/**
 * Whether `value` surely obeys a `not_past` rule. The entity's business day may be a day either
 * side of the UTC one, and a request takes time to arrive: a value within a day of a bound is not
 * sure, and neither valid nor a violation here.
 */
export function notPastHolds(rule: Rule, value: Obj): boolean | undefined {
  const v = value[rule.field!];
  if (v === undefined || v === null) return true;
  if (rule.unit === 'instant') {
    const at = Date.parse(String(v));
    if (Number.isNaN(at)) return undefined;
    return at > Date.now() + DAY_MS ? true : at < Date.now() - DAY_MS ? false : undefined;
  }
  if (rule.unit === 'day') {
    const d = String(v);
    const within = rule.within_days ?? Infinity;
    if (d < dayFromToday(-1) || (within !== Infinity && d > dayFromToday(within + 1))) return false;
    return d > dayFromToday(1) && (within === Infinity || d < dayFromToday(within - 1)) ? true : undefined;
  }
  const month = value[rule.month!];
  if (typeof v !== 'number' || typeof month !== 'number') return undefined;
  const now = new Date();
  const current = now.getUTCFullYear() * 12 + now.getUTCMonth();
  const given = v * 12 + month - 1;
  // The UTC month turns at midnight: the current month and the one before are not sure.
  return given > current ? true : given < current - 1 ? false : undefined;
}

/** A value of a `not_past` rule's field that obeys it (a month: the year, next year). */
function notPastValue(rule: Rule): unknown {
  if (rule.unit === 'instant') return new Date(Date.now() + 30 * DAY_MS).toISOString();
  if (rule.unit === 'day') return dayFromToday(Math.min(2, Math.floor((rule.within_days ?? 4) / 2)));
  return new Date().getUTCFullYear() + 1;
}

/** A value of a `not_past` rule's field that breaks it (a month: the year, last year). */
function pastValue(rule: Rule): unknown {
  if (rule.unit === 'instant') return new Date(Date.now() - 30 * DAY_MS).toISOString();
  if (rule.unit === 'day') return dayFromToday(-3);
  return new Date().getUTCFullYear() - 1;
}

/** `a op b` for two dates (compared as instants) or two numbers. */
function holds(a: unknown, op: Rule['op'], b: unknown): boolean {
  const n = (v: unknown) => (typeof v === 'number' ? v : Date.parse(String(v)));
  const [x, y] = [n(a), n(b)];
  return op === '<' ? x < y : op === '<=' ? x <= y : op === '>' ? x > y : x >= y;
}

/**
 * `value` changed so that it obeys `rules`: a field another needs is taken from `full` (a value
 * of the same schema with every property), a field a rule excludes is left out (never one of
 * `required`), compared values are swapped or the optional side left out. With one side of a
 * comparison missing the other is left out (an update compares with the stored value).
 */
export function satisfyRules(
  rules: Rule[],
  value: Obj,
  full: Obj,
  required: string[],
  /** Fields left as they are (those a violation breaks): a rule is then met by the others. */
  kept: string[] = [],
): Obj {
  const out: Obj = { ...value };
  const has = (f: string) => out[f] !== undefined;
  const optional = (f: string) => !required.includes(f) && !kept.includes(f);
  // Twice over: a field a later rule adds (a carrier "one of them is required" sends) is then
  // brought within the earlier rules that read it (the carrier's services).
  for (const rule of [...rules, ...rules]) {
    const fields = rule.fields ?? [];
    if (rule.kind === 'exclusive') {
      const keep = fields.find((f) => has(f) && !optional(f)) ?? fields.find(has);
      for (const f of fields) if (f !== keep && optional(f)) delete out[f];
    } else if (rule.kind === 'one_required') {
      const add = fields.find((f) => !kept.includes(f)) ?? fields[0];
      if (!fields.some(has)) out[add] = full[add];
    } else if (rule.kind === 'when') {
      satisfyWhen(rule, out, full, optional);
    } else if (rule.kind === 'requires') {
      if (has(rule.field!)) for (const f of rule.requires!) if (!has(f)) out[f] = full[f];
    } else if (rule.kind === 'equal') {
      if (has(fields[0]) && has(fields[1])) out[fields[1]] = out[fields[0]];
    } else if (rule.kind === 'caller_mode') {
      // The requests of this suite use a live key (test helpers aside, which have no such field).
      if (has(rule.field!)) out[rule.field!] = 'live';
    } else if (rule.kind === 'distinct') {
      const list = out[rule.field!];
      if (Array.isArray(list)) {
        const seen = new Set<string>();
        const fresh = (value: unknown) => {
          const key = JSON.stringify(value);
          return !seen.has(key) && !!seen.add(key);
        };
        const inner = rule.key?.endsWith('[]') ? rule.key.slice(0, -2) : undefined;
        // Repeated items (or keys) left out; the repeated elements of each item's list left out.
        out[rule.field!] =
          inner === undefined
            ? list.filter((item) => fresh(rule.key === undefined ? item : (item as Obj | null)?.[rule.key]))
            : list.map((item) => {
                const values = (item as Obj | null)?.[inner];
                return Array.isArray(values) ? { ...(item as Obj), [inner]: values.filter(fresh) } : item;
              });
      }
    } else if (rule.kind === 'not_past') {
      if (has(rule.field!) && out[rule.field!] !== null && notPastHolds(rule, out) !== true)
        out[rule.field!] = notPastValue(rule);
    } else if (rule.kind === 'one_positive') {
      const positive = fields.filter((f) => typeof out[f] === 'number' && (out[f] as number) > 0);
      for (const f of positive.slice(1)) out[f] = 0;
      if (!positive.length) out[fields[0]] = 1;
    } else if (rule.kind === 'compare') {
      const [a, b] = [rule.field!, rule.than!];
      if (!has(a) || !has(b) || out[a] === null || out[b] === null) {
        if ((!has(b) || out[b] === null) && has(a) && optional(a)) delete out[a];
        continue;
      }
      if (holds(out[a], rule.op, out[b])) continue;
      if (holds(out[b], rule.op, out[a])) [out[a], out[b]] = [out[b], out[a]];
      else if (optional(a)) delete out[a];
    }
  }
  return out;
}

/**
 * For each rule, `base` changed to break it and nothing else (values taken from `full`, which
 * obeys the rules), with the `param` the refusal names; a rule that cannot be broken from these
 * values is left out.
 */
export function ruleViolations(
  rules: Rule[],
  base: Obj,
  full: Obj,
  /** The values a field's schema lists (its `enum`), where it lists them. */
  valuesOf?: (field: string) => unknown[] | undefined,
): { rule: Rule; value: Obj }[] {
  const out: { rule: Rule; value: Obj }[] = [];
  for (const rule of rules) {
    const fields = rule.fields ?? [];
    const value: Obj = { ...base };
    if (rule.kind === 'exclusive') {
      for (const f of fields) value[f] = base[f] ?? full[f];
    } else if (rule.kind === 'one_required') {
      // A stored record may already hold one of them: leaving both out need not break the rule.
      if (rule.stored) continue;
      for (const f of fields) delete value[f];
    } else if (rule.kind === 'requires') {
      value[rule.field!] = base[rule.field!] ?? full[rule.field!];
      for (const f of rule.requires!) delete value[f];
    } else if (rule.kind === 'equal') {
      continue;
    } else if (rule.kind === 'caller_mode') {
      value[rule.field!] = 'test';
    } else if (rule.kind === 'distinct') {
      const list = base[rule.field!] ?? full[rule.field!];
      if (!Array.isArray(list) || !list.length) continue;
      if (!rule.key?.endsWith('[]')) {
        // The first item again.
        value[rule.field!] = [...list, list[0]];
      } else {
        // The first item's list with its first element twice (one sent by the full value, else a
        // string of its own: the elements are free strings).
        const inner = rule.key.slice(0, -2);
        const first = list[0] as Obj;
        const own =
          first[inner] ?? ((full[rule.field!] as Obj[] | undefined)?.[0] as Obj | undefined)?.[inner];
        const element = Array.isArray(own) && own.length ? own[0] : 'REPEATED-1';
        value[rule.field!] = [{ ...first, [inner]: [element, element] }, ...list.slice(1)];
      }
    } else if (rule.kind === 'not_past') {
      // A month's rule needs its month: the year alone is not judged.
      if (rule.unit === 'month' && typeof (value[rule.month!] ?? full[rule.month!]) !== 'number') continue;
      if (rule.unit === 'month') value[rule.month!] = value[rule.month!] ?? full[rule.month!];
      value[rule.field!] = pastValue(rule);
    } else if (rule.kind === 'one_positive') {
      for (const f of fields) value[f] = 1;
    } else if (rule.kind === 'compare') {
      const [a, b] = [full[rule.field!], full[rule.than!]];
      if (a === undefined || b === undefined || a === null || b === null) continue;
      const [x, y] = holds(a, rule.op, b) ? [b, a] : [a, b];
      if (holds(x, rule.op, y)) continue;
      value[rule.field!] = x;
      value[rule.than!] = y;
    } else if (rule.kind === 'when') {
      // The condition sent, then one thing it asks for broken (a stored rule's needed field sent null).
      if (!whenHolds(rule, value))
        setPath(
          value,
          rule.field!,
          whenHolds(rule, full)
            ? getPath(full, rule.field!)
            : Array.isArray(rule.is)
              ? rule.is[0]
              : (rule.is as { above: number }).above + 1,
        );
      const [need] = rule.requires ?? [];
      const [excluded] = (rule.forbids ?? []).filter(
        (f) => getPath(full, f) !== undefined && getPath(full, f) !== null,
      );
      const [low] = Object.entries(rule.minimum ?? {});
      const [high] = Object.entries(rule.maximum ?? {});
      // A value the rule does not allow: the full value's, or another of the field's own values.
      const [outside] = Object.entries(rule.allowed ?? {}).flatMap(([f, values]) =>
        [getPath(full, f), ...(valuesOf?.(f) ?? [])]
          .filter((v) => v !== undefined && !values.includes(v))
          .slice(0, 1)
          .map((v) => [f, v] as const),
      );
      if (need !== undefined) setPath(value, need, rule.stored ? null : undefined);
      else if (excluded !== undefined) setPath(value, excluded, getPath(full, excluded));
      else if (low) setPath(value, low[0], low[1] - 1);
      else if (high) setPath(value, high[0], high[1] + 1);
      else if (outside) setPath(value, outside[0], outside[1]);
      else continue;
    }
    if (fields.some((f) => value[f] === undefined) && rule.kind === 'exclusive') continue;
    // The other rules still hold (only this one is broken), met without the fields it names.
    const named =
      rule.kind === 'when'
        ? [rule.field!, ...whenFields(rule)]
        : [
            ...fields,
            ...(rule.field ? [rule.field] : []),
            ...(rule.requires ?? []),
            ...(rule.than ? [rule.than] : []),
          ];
    const others = rules.filter((r) => r !== rule && (r.kind === 'when' || r.kind === 'one_required'));
    out.push({ rule, value: others.length ? satisfyRules(others, value, full, [], named) : value });
  }
  return out;
}

/** Whether `branches` only constrain which properties are present (no types or values of their own). */
const constraintOnly = (branches: Schema[]) =>
  branches.every((b) => !b.type && !b.properties && !b.$ref && !b.enum && b.const === undefined && !b.items);

/** Where a generator finds `$ref` targets. */
export interface SchemaContext {
  document: { components?: { schemas?: Record<string, Schema> } };
  /**
   * A live id for a uuid field of this name (an account_id of the entity, ...), or undefined
   * for a freshly generated uuid. Lets a valid request name records that exist.
   */
  liveId?: (field: string) => string | undefined;
}

/** The schema with its `$ref` followed and its `allOf` parts merged (one level of object). */
export function resolveSchema(ctx: SchemaContext, schema: Schema | undefined, hops = 0): Schema {
  if (!schema || hops > 20) return {};
  if (schema.$ref) {
    const target = ctx.document.components?.schemas?.[schema.$ref.split('/').pop()!];
    const { $ref: _ref, ...rest } = schema;
    return resolveSchema(ctx, { ...target, ...rest }, hops + 1);
  }
  if (schema.allOf) {
    const parts = schema.allOf.map((part) => resolveSchema(ctx, part, hops + 1));
    const { allOf: _allOf, ...rest } = schema;
    return parts.reduce<Schema>(
      (merged, part) => ({
        ...part,
        ...merged,
        properties: { ...part.properties, ...merged.properties },
        required: [...(part.required ?? []), ...(merged.required ?? [])],
      }),
      rest,
    );
  }
  // `anyOf: [X, {type: null}]` is X that may be null.
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches?.length === 2) {
    const isNull = (b: Schema) => b.type === 'null';
    const other = branches.find((b) => !isNull(b));
    if (other && branches.some(isNull)) {
      const { anyOf: _a, oneOf: _o, ...rest } = schema;
      const inner = resolveSchema(ctx, other, hops + 1);
      return { ...rest, ...inner, type: [...typesOf(inner), 'null'] };
    }
  }
  return schema;
}

/** The JSON types a schema admits ('null' when it may be null). */
export function typesOf(schema: Schema): string[] {
  if (Array.isArray(schema.type)) return schema.type;
  if (schema.type) return [schema.type];
  if (schema.properties) return ['object'];
  if (schema.items) return ['array'];
  return [];
}

const HEX = '0123456789abcdef';
/** Any 8-4-4-4-12 hex layout: what `format: uuid` says (no version or variant digit required). */
const anyUuid = fc
  .array(fc.constantFrom(...HEX.split('')), { minLength: 32, maxLength: 32 })
  .map((d) => d.join(''))
  .map((h) => `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`);

const day = fc.date({
  min: new Date('2000-01-01T00:00:00Z'),
  max: new Date('2099-12-31T00:00:00Z'),
  noInvalidDate: true,
});

/** A string the schema's format, pattern and lengths admit. */
function stringOf(ctx: SchemaContext, schema: Schema, field: string): fc.Arbitrary<string> {
  const live = schema.format === 'uuid' ? ctx.liveId?.(field) : undefined;
  if (live) return fc.constant(live);
  switch (schema.format) {
    case 'uuid':
      return anyUuid;
    case 'date-time':
      return day.map((d) => d.toISOString());
    case 'date':
      return day.map((d) => d.toISOString().slice(0, 10));
    case 'email':
      return fc.constantFrom('jane@example.com', 'ops@example.org');
    case 'uri':
    case 'url':
      // Documentation hosts; a path of its own each, since a receiver URL may be registered once.
      return fc
        .tuple(fc.constantFrom('https://example.com/', 'https://example.org/path/'), fc.nat({ max: 1e9 }))
        .map(([base, n]) => `${base}${n}`);
  }
  const min = schema.minLength ?? 0;
  const max = Math.max(min, Math.min(schema.maxLength ?? 24, 40));
  if (schema.pattern)
    return fc
      .stringMatching(new RegExp(schema.pattern))
      .filter((s) => s.length >= min && s.length <= (schema.maxLength ?? Infinity));
  return fc.string({ minLength: min, maxLength: max, unit: 'grapheme-ascii' });
}

function numberOf(schema: Schema, integer: boolean): fc.Arbitrary<number> {
  const low = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum : -1000);
  const high = schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum : 1000);
  // Small values around the bounds: a quantity of a million is valid but rarely useful here.
  const min = Math.max(low, -1000);
  const max = Math.min(high, Math.max(min, 1000));
  const inRange = (n: number) =>
    (schema.exclusiveMinimum === undefined || n > schema.exclusiveMinimum) &&
    (schema.exclusiveMaximum === undefined || n < schema.exclusiveMaximum) &&
    (schema.multipleOf === undefined ||
      Math.abs(n / schema.multipleOf - Math.round(n / schema.multipleOf)) < 1e-9);
  if (integer || schema.multipleOf !== undefined) {
    const step = schema.multipleOf ?? 1;
    return fc
      .integer({ min: Math.ceil(min / step), max: Math.max(Math.ceil(min / step), Math.floor(max / step)) })
      .map((k) => Number((k * step).toFixed(10)))
      .filter(inRange);
  }
  // Two decimal places: what money and quantities carry.
  return fc
    .integer({ min: Math.ceil(min * 100), max: Math.floor(max * 100) })
    .map((n) => n / 100)
    .filter(inRange);
}

export interface ValueOptions {
  /** Only the required properties of objects (the minimal request). */
  minimal?: boolean;
  /** Use the schema's example where it gives one. */
  examples?: boolean;
}

/** An arbitrary of values valid by `raw`. `field` is the property's name (for live ids). */
export function valueOf(
  ctx: SchemaContext,
  raw: Schema | undefined,
  options: ValueOptions = {},
  field = '',
  depth = 0,
): fc.Arbitrary<unknown> {
  const schema = resolveSchema(ctx, raw);
  const branches = schema.oneOf ?? schema.anyOf;
  // An object's `anyOf` of `required` lists is a cross-field rule: its `x-rules` entry steers.
  if (branches && !constraintOnly(branches)) {
    const { oneOf: _o, anyOf: _a, ...rest } = schema;
    const arbs = branches.map((b) =>
      valueOf(ctx, { ...rest, ...resolveSchema(ctx, b) }, options, field, depth + 1),
    );
    return options.minimal ? arbs[0] : fc.oneof(...arbs);
  }
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum?.length) return fc.constantFrom(...schema.enum.filter((v) => v !== null));
  const live = schema.format === 'uuid' ? ctx.liveId?.(field) : undefined;
  if (live) return fc.constant(live);
  if (options.examples && schema.example !== undefined && schema.format !== 'uuid')
    return fc.constant(schema.example);
  const types = typesOf(schema).filter((t) => t !== 'null');
  switch (types[0]) {
    case 'object': {
      const props = Object.entries(schema.properties ?? {}).filter(
        ([, s]) => !resolveSchema(ctx, s).readOnly,
      );
      if (depth > 4) return fc.constant({});
      // A field required by either branch of an if/then/else is sent (valid whichever applies).
      const required = new Set([
        ...(schema.required ?? []),
        ...(schema.then?.required ?? []),
        ...(schema.else?.required ?? []),
      ]);
      const chosen = options.minimal ? props.filter(([name]) => required.has(name)) : props;
      const record = fc.record(
        Object.fromEntries(chosen.map(([name, s]) => [name, valueOf(ctx, s, options, name, depth + 1)])),
        { requiredKeys: chosen.map(([name]) => name).filter((name) => required.has(name)) },
      );
      const rules = schema['x-rules'];
      if (!rules?.length) return record;
      // Fields a rule needs come from a value with every property (examples first).
      const full = fc.record(
        Object.fromEntries(
          props.map(([name, s]) => [name, valueOf(ctx, s, { examples: true }, name, depth + 1)]),
        ),
      );
      // An object field a rule reaches into (`settings.adapter`) obeys its own rules again after.
      const reached = new Set(
        rules
          .flatMap((r) => [
            r.field ?? '',
            ...(r.requires ?? []),
            ...(r.forbids ?? []),
            ...Object.keys(r.allowed ?? {}),
          ])
          .filter((f) => f.includes('.'))
          .map((f) => f.split('.')[0]),
      );
      return fc.tuple(record, full).map(([value, all]) => {
        const out = satisfyRules(
          rules,
          value as Obj,
          // Every field stays available to the rules that need one (`when` rules left out here).
          satisfyRules(
            rules.filter((r) => r.kind !== 'when'),
            all as Obj,
            all as Obj,
            [],
          ),
          schema.required ?? [], // a field only a `then` part requires may be left out for another rule
        );
        for (const name of reached) {
          const inner = resolveSchema(ctx, schema.properties?.[name]);
          const sent = out[name];
          if (!inner['x-rules']?.length || !sent || typeof sent !== 'object') continue;
          out[name] = satisfyRules(inner['x-rules'], sent as Obj, sent as Obj, inner.required ?? []);
        }
        return out;
      });
    }
    case 'array': {
      const minLength = schema.minItems ?? 0;
      const maxLength = Math.max(minLength, Math.min(schema.maxItems ?? 2, 2));
      const item = valueOf(ctx, schema.items, options, field, depth + 1);
      return schema.uniqueItems
        ? fc.uniqueArray(item, { minLength, maxLength, selector: (v) => JSON.stringify(v) })
        : fc.array(item, { minLength: options.minimal ? minLength || 1 : minLength, maxLength });
    }
    case 'integer':
      return numberOf(schema, true);
    case 'number':
      return numberOf(schema, false);
    case 'boolean':
      return fc.boolean();
    case 'string':
      return stringOf(ctx, schema, field);
    default:
      return fc.constant('x');
  }
}

/**
 * An object of `raw` with every writable property (the schema's examples where it gives them),
 * its cross-field rules not applied: the values a rule's violation is made of.
 */
export function everyField(ctx: SchemaContext, raw: Schema | undefined): fc.Arbitrary<Obj> {
  const schema = resolveSchema(ctx, raw);
  const props = Object.entries(schema.properties ?? {}).filter(([, s]) => !resolveSchema(ctx, s).readOnly);
  return fc.record(
    Object.fromEntries(props.map(([name, s]) => [name, valueOf(ctx, s, { examples: true }, name, 1)])),
  );
}

/** A value that breaks one constraint of a field, and that constraint's name. */
export interface Violation {
  constraint: string;
  value: unknown;
}

/**
 * Values that each break exactly one constraint of `raw` (the field's other constraints, and the
 * rest of the request, stay valid). `required` is handled by the caller (leaving the field out).
 */
export function violationsOf(ctx: SchemaContext, raw: Schema | undefined): Violation[] {
  const schema = resolveSchema(ctx, raw);
  if (schema.oneOf ?? schema.anyOf) return [];
  const types = typesOf(schema);
  const out: Violation[] = [];
  const nullable = types.includes('null') || schema.enum?.includes(null);
  const type = types.find((t) => t !== 'null');
  if (!type && !schema.enum) return out;
  // type: a value of another JSON type (an object is never a valid scalar, a string never a number).
  if (type === 'string') out.push({ constraint: 'type', value: 12345 });
  if (type === 'number' || type === 'integer') out.push({ constraint: 'type', value: 'twelve' });
  if (type === 'boolean') out.push({ constraint: 'type', value: 'maybe' });
  if (type === 'array') out.push({ constraint: 'type', value: 'not-an-array' });
  if (type === 'object') out.push({ constraint: 'type', value: 'not-an-object' });
  if (!nullable && type) out.push({ constraint: 'type (null)', value: null });
  if (schema.enum?.length && (type === 'string' || !type))
    out.push({ constraint: 'enum', value: 'not_one_of_the_values' });
  if (type === 'string') {
    if (schema.format === 'uuid') out.push({ constraint: 'format uuid', value: 'not-a-uuid' });
    if (schema.format === 'date-time')
      out.push({ constraint: 'format date-time', value: '2024-13-45T99:00:00Z' });
    if (schema.format === 'date') out.push({ constraint: 'format date', value: '2024-02-30' });
    if (schema.format === 'email') out.push({ constraint: 'format email', value: 'not an email' });
    if (schema.pattern && !schema.enum && !schema.format) {
      const bad = ['!', '~~~', ' '].find((s) => !new RegExp(schema.pattern!).test(s));
      if (bad !== undefined) out.push({ constraint: 'pattern', value: bad });
    }
    if (schema.minLength !== undefined && schema.minLength > 0 && !schema.enum && !schema.format)
      out.push({ constraint: 'minLength', value: 'a'.repeat(schema.minLength - 1) });
    if (schema.maxLength !== undefined && !schema.enum && !schema.format)
      out.push({ constraint: 'maxLength', value: 'a'.repeat(schema.maxLength + 1) });
  }
  if (type === 'integer') out.push({ constraint: 'type (integer)', value: 1.5 });
  if (type === 'number' || type === 'integer') {
    if (schema.minimum !== undefined) out.push({ constraint: 'minimum', value: schema.minimum - 1 });
    if (schema.exclusiveMinimum !== undefined)
      out.push({ constraint: 'exclusiveMinimum', value: schema.exclusiveMinimum });
    if (schema.maximum !== undefined) out.push({ constraint: 'maximum', value: schema.maximum + 1 });
    if (schema.exclusiveMaximum !== undefined)
      out.push({ constraint: 'exclusiveMaximum', value: schema.exclusiveMaximum });
    // One decimal place more than the scale allows, within the bounds.
    const places = schema['x-decimal-places'];
    if (places !== undefined && type === 'number') {
      const value = Math.max(schema.minimum ?? 0, 0) + Number(`1e-${places + 1}`);
      if (schema.maximum === undefined || value <= schema.maximum)
        out.push({ constraint: 'x-decimal-places', value });
    }
  }
  if (type === 'object') {
    // A free object's limits (metadata): its key count, key lengths and value lengths.
    if (schema.maxProperties !== undefined)
      out.push({
        constraint: 'maxProperties',
        value: Object.fromEntries(Array.from({ length: schema.maxProperties + 1 }, (_, i) => [`k${i}`, 'v'])),
      });
    const names = schema.propertyNames;
    if (names?.maxLength !== undefined)
      out.push({ constraint: 'propertyNames maxLength', value: { ['k'.repeat(names.maxLength + 1)]: 'v' } });
    if (names?.minLength) out.push({ constraint: 'propertyNames minLength', value: { '': 'v' } });
    const values = typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
    if (values?.maxLength !== undefined)
      out.push({
        constraint: 'additionalProperties maxLength',
        value: { k: 'a'.repeat(values.maxLength + 1) },
      });
  }
  if (type === 'array') {
    const item = fc.sample(valueOf(ctx, schema.items, { minimal: true, examples: true }), {
      numRuns: 1,
      seed: 1,
    })[0];
    if (schema.maxItems !== undefined)
      out.push({ constraint: 'maxItems', value: Array.from({ length: schema.maxItems + 1 }, () => item) });
    if (schema.minItems !== undefined && schema.minItems > 0) out.push({ constraint: 'minItems', value: [] });
    if (schema.uniqueItems && (schema.maxItems === undefined || schema.maxItems >= 2))
      out.push({ constraint: 'uniqueItems', value: [item, item] });
  }
  return out;
}
