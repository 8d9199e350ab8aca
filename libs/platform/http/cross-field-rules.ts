/**
 * Rules that relate two or more fields of one request (a body, or the query of an operation),
 * declared once on the DTO class with @CrossFieldRules() and read by the OpenAPI generator
 * (libs/platform/openapi/validation-constraints.ts), which states each one as JSON Schema where
 * the language can say it (`not` + `required`, `dependentRequired`) and always as an
 * entry of the `x-rules` extension, with its sentence added to the description. The check that
 * enforces a rule names the same field (`param`) the declaration gives.
 */
export type CrossFieldRule =
  /** At most one of `fields` is sent (`param` is the field named when more are). */
  | { kind: 'exclusive'; fields: string[]; param: string; sentence: string }
  /**
   * At least one of `fields` is sent. `stored`: unless the record already holds one of them (an
   * action on a stored record), so the rule may hold or not on the request alone.
   */
  | { kind: 'one_required'; fields: string[]; stored?: boolean; param: string; sentence: string }
  /** When `field` is sent, so is each of `requires`. */
  | { kind: 'requires'; field: string; requires: string[]; param: string; sentence: string }
  /**
   * `field` compares with `than` as `op` says (dates or numbers); when only one is sent, the other
   * is the stored value (an update) or its default.
   */
  | {
      kind: 'compare';
      field: string;
      op: '<' | '<=' | '>' | '>=';
      than: string;
      param: string;
      sentence: string;
    }
  /** Of the amount fields `fields`, exactly one is above zero. */
  | { kind: 'one_positive'; fields: string[]; param: string; sentence: string }
  /**
   * When sent, `field` holds the mode of the calling API key (`live` or `test`): a value the
   * request alone cannot show, so it is stated by `x-rules` and the sentence only.
   */
  | { kind: 'caller_mode'; field: string; param: string; sentence: string }
  /**
   * When sent (and not null), `field` is not in the past when the request is received: with
   * `unit: 'instant'` a date-time after the current instant; with `unit: 'day'` a date from the
   * entity's business day (its time zone's today) to `within_days` days after it; with
   * `unit: 'month'` the year `field` and the month `month` name the current month (UTC) or a later
   * one. A value the request alone cannot judge (it depends on the clock), so it is stated by
   * `x-rules` and the sentence only.
   */
  | {
      kind: 'not_past';
      field: string;
      unit: 'instant' | 'day' | 'month';
      month?: string;
      within_days?: number;
      param: string;
      sentence: string;
    }
  /**
   * The list `field` holds no value twice. With `key`, the items' `key` fields differ (an order
   * line returned once per request; the refusal names `field[i].key`): no JSON Schema keyword
   * says it (`uniqueItems` compares whole items), so it is stated by `x-rules` and the sentence
   * only. A `key` ending in `[]` names a list in each item whose elements differ across all the
   * items together (the serial numbers of a package's items; the refusal names
   * `field[i].key[j]`), stated the same way. Without `key`, the items themselves differ (a list
   * of serial numbers; the refusal names `field[i]`), which is also `uniqueItems: true`.
   */
  | { kind: 'distinct'; field: string; key?: string; param: string; sentence: string }
  /** When both `fields` are sent they hold the same value (an alias and its field). */
  | { kind: 'equal'; fields: [string, string]; param: string; sentence: string }
  /**
   * When `field` holds one of `is` (or, `is` being `{ above }`, a number above it), the request
   * obeys the rest: each of `requires` is sent and not null, none of `forbids` is sent, each field
   * of `minimum` / `maximum` is within its bound and each of `allowed` holds one of its values.
   * `stored`: a field the request does not send is the record's stored value (an update), so the
   * rule may hold or not on the request alone. A stored rule's `field` may be one the request
   * cannot send at all (an integration's connector `type` on an update): it is always the record's,
   * as reading the record shows it. A field may be one of an object field (`settings.adapter`:
   * the field `adapter` of the object sent as `settings`).
   */
  | {
      kind: 'when';
      field: string;
      is: readonly (string | boolean)[] | { above: number };
      requires?: string[];
      forbids?: string[];
      minimum?: Record<string, number>;
      maximum?: Record<string, number>;
      allowed?: Record<string, readonly (string | null)[]>;
      stored?: boolean;
      param: string;
      sentence: string;
    };

/** The fields the `then` part of a `when` rule constrains. */
export const whenFields = (rule: Extract<CrossFieldRule, { kind: 'when' }>): string[] => [
  ...(rule.requires ?? []),
  ...(rule.forbids ?? []),
  ...Object.keys(rule.minimum ?? {}),
  ...Object.keys(rule.maximum ?? {}),
  ...Object.keys(rule.allowed ?? {}),
];

const declared = new WeakMap<object, CrossFieldRule[]>();

/** Declares the cross-field rules of a request DTO (its subclasses inherit them). */
export const CrossFieldRules =
  (...rules: CrossFieldRule[]): ClassDecorator =>
  (target) => {
    declared.set(target, [...(declared.get(target) ?? []), ...rules]);
  };

/** The cross-field rules of a DTO class and of its ancestors. */
export function crossFieldRulesOf(target: unknown): CrossFieldRule[] {
  const rules: CrossFieldRule[] = [];
  for (
    let type = target as object | null;
    type && type !== Function.prototype;
    type = Object.getPrototypeOf(type) as object | null
  )
    rules.unshift(...(declared.get(type) ?? []));
  return rules;
}

/** The cursor rule every list query obeys (one side of a page only). */
export const ONE_CURSOR: CrossFieldRule = {
  kind: 'exclusive',
  fields: ['starting_after', 'ending_before'],
  param: 'ending_before',
  sentence: 'starting_after and ending_before are mutually exclusive.',
};

/** How a `distinct` rule compares values: strings and numbers as they are, anything else never. */
const comparable = (value: unknown): value is string | number =>
  typeof value === 'string' || typeof value === 'number';

/**
 * The first value of a body list that repeats an earlier one, by the `distinct` rules of the
 * body's class: the path of the repeat (`lines[1].order_item_id`, `items[1].serial_numbers[0]`,
 * `serial_numbers[2]`) and the rule's sentence. The validation pipe refuses it before the route
 * runs, whatever state the record is in.
 */
export function firstRepeatedItem(
  target: unknown,
  body: unknown,
): { param: string; hint: string } | undefined {
  if (!body || typeof body !== 'object') return undefined;
  for (const rule of crossFieldRulesOf(target)) {
    if (rule.kind !== 'distinct') continue;
    const list = (body as Record<string, unknown>)[rule.field];
    if (!Array.isArray(list)) continue;
    const seen = new Set<string | number>();
    const repeats = (value: unknown) => {
      if (!comparable(value)) return false;
      if (seen.has(value)) return true;
      seen.add(value);
      return false;
    };
    const inner = rule.key?.endsWith('[]') ? rule.key.slice(0, -2) : undefined;
    for (const [index, item] of list.entries()) {
      if (rule.key === undefined) {
        if (repeats(item)) return { param: `${rule.field}[${index}]`, hint: rule.sentence };
        continue;
      }
      const field =
        item && typeof item === 'object' ? (item as Record<string, unknown>)[inner ?? rule.key] : undefined;
      if (inner === undefined) {
        if (typeof field === 'string' && repeats(field))
          return { param: `${rule.field}[${index}].${rule.key}`, hint: rule.sentence };
        continue;
      }
      if (!Array.isArray(field)) continue;
      for (const [position, value] of field.entries())
        if (repeats(value))
          return { param: `${rule.field}[${index}].${inner}[${position}]`, hint: rule.sentence };
    }
  }
  return undefined;
}
