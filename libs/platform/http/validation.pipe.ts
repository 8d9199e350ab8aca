import { ArgumentMetadata, Injectable, PipeTransform, ValidationError, ValidationPipe } from '@nestjs/common';
import { DECORATORS } from '@nestjs/swagger';
import { validateSync } from 'class-validator';
import { PlatformError } from '../errors/domain-error';
import { firstRepeatedItem } from './cross-field-rules';
import { exceedsDepth, firstUnstorableString, tooDeep } from './json-limits';
import { rememberValidationMetadata } from './validation-metadata';

function isIndex(property: string) {
  return /^\d+$/.test(property);
}

const join = (parent: string, property: string) =>
  parent === '' ? property : isIndex(property) ? `${parent}[${property}]` : `${parent}.${property}`;

/** The first leaf error with its dotted path, e.g. `items[0].quantity`. */
function firstLeaf(
  errors: ValidationError[],
  parent = '',
): { path: string; error: ValidationError } | undefined {
  for (const error of errors) {
    const path = join(parent, error.property);
    if (error.constraints && Object.keys(error.constraints).length > 0) return { path, error };
    const child = firstLeaf(error.children ?? [], path);
    if (child) return child;
  }
  return undefined;
}

/**
 * class-validator blames the whole array for a failed `each: true` rule; re-validates the
 * elements one at a time to name the first one at fault, e.g. `scopes[2]`.
 */
function failingElement(error: ValidationError, message: string): number | undefined {
  const { target, property, value } = error;
  if (!Array.isArray(value) || !target || !message.startsWith('each value in')) return undefined;
  for (let i = 0; i < value.length; i++) {
    const probe = Object.assign(Object.create(Object.getPrototypeOf(target) as object) as object, target, {
      [property]: [value[i]],
    });
    if (validateSync(probe, { forbidUnknownValues: false }).some((e) => e.property === property)) return i;
  }
  return undefined;
}

/** Constraints that state a value's JSON type, with the type they require. */
const TYPE_CONSTRAINTS: Record<string, string> = {
  isString: 'a string',
  isNumber: 'a number',
  isMoneyAmount: 'a number',
  isInt: 'an integer',
  isBoolean: 'a boolean',
  isArray: 'an array',
  isObject: 'an object',
  nestedValidation: 'an object',
  isDateString: 'a string (an ISO 8601 date-time)',
  isIso8601: 'a string (an ISO 8601 date-time)',
  isISO8601: 'a string (an ISO 8601 date-time)',
};

/** Constraints that only a string can meet: on a value of another type they fail for its type. */
const STRING_CONSTRAINTS = new Set([
  'maxLength',
  'minLength',
  'isLength',
  'isNotEmpty',
  'matches',
  'isEmail',
  'isUrl',
  'isUuid',
  'isHexColor',
  'isCurrency',
  'isIso4217CurrencyCode',
  'isISO4217CurrencyCode',
  'isIso31661Alpha2',
  'isISO31661Alpha2',
  'isIp',
  'isFqdn',
  'isAlphanumeric',
  'isLowercase',
  'isUppercase',
  'isTimeZone',
  'contains',
]);

/** Constraints that only a number can meet. */
const NUMBER_CONSTRAINTS = new Set(['min', 'max', 'isPositive', 'isNegative', 'isDivisibleBy']);

/** A JSON value's type as a client would name it. */
function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'string':
      return 'a string';
    case 'number':
      return Number.isInteger(value) ? 'an integer' : 'a number';
    case 'boolean':
      return 'a boolean';
    case 'object':
      return 'an object';
    default:
      return typeof value;
  }
}

/** Whether `value` has the JSON type that `expected` (a TYPE_CONSTRAINTS wording) names. */
function hasType(value: unknown, expected: string): boolean {
  if (expected.startsWith('a string')) return typeof value === 'string';
  if (expected === 'a number' || expected === 'an integer') return typeof value === 'number';
  if (expected === 'a boolean') return typeof value === 'boolean';
  if (expected === 'an array') return Array.isArray(value);
  if (expected === 'an object') return typeof value === 'object' && value !== null && !Array.isArray(value);
  return true;
}

/**
 * The one message a failed field reports. A value of the wrong JSON type is named for its type
 * before any length, format or range rule ("name must be a string, not an integer"): the type
 * constraint's rule wins, and a string-only or number-only rule failing on a value of another
 * type reports the type it needs. Otherwise the first failed rule's message.
 */
function constraintMessage(error: ValidationError): string {
  const constraints = error.constraints ?? {};
  const names = Object.keys(constraints);
  const { property, value } = error;
  const eachRule = (name: string) => constraints[name].startsWith('each value in');
  const typeRule = names.find((name) => TYPE_CONSTRAINTS[name] !== undefined);
  if (typeRule) {
    const expected = TYPE_CONSTRAINTS[typeRule];
    if (!eachRule(typeRule) && !hasType(value, expected)) {
      return `${property} must be ${expected}, not ${jsonTypeOf(value)}`;
    }
    return constraints[typeRule];
  }
  if (!Array.isArray(value) || !names.some(eachRule)) {
    if (typeof value !== 'string' && names.some((name) => STRING_CONSTRAINTS.has(name))) {
      return `${property} must be a string, not ${jsonTypeOf(value)}`;
    }
    if (typeof value !== 'number' && names.some((name) => NUMBER_CONSTRAINTS.has(name))) {
      return `${property} must be a number, not ${jsonTypeOf(value)}`;
    }
  }
  return constraints[names[0]];
}

function toPlatformError(errors: ValidationError[], location: string): PlatformError {
  const leaf = firstLeaf(errors);
  if (!leaf) return new PlatformError('parameter_invalid', { hint: `Invalid ${location}.` }).asPreHandler();
  const { error } = leaf;
  const constraints = error.constraints ?? {};
  const message = constraintMessage(error);
  const index = failingElement(error, message);
  const path = index === undefined ? leaf.path : `${leaf.path}[${index}]`;
  if (constraints.whitelistValidation) {
    return new PlatformError('parameter_unknown', {
      param: path,
      hint: `Received unknown parameter: ${path}.`,
    }).asPreHandler();
  }
  // Optional fields never get here with null (@IsOptional() skips it): a null that fails is a
  // required parameter without a value.
  if (error.value === undefined || error.value === null) {
    return new PlatformError('parameter_missing', {
      param: path,
      hint: `Missing required parameter: ${path}${error.value === null ? ' (null was sent)' : ''}.`,
    }).asPreHandler();
  }
  return new PlatformError('parameter_invalid', {
    param: path,
    hint: `Invalid ${path}: ${readableReason(constraints, message)}`,
  }).asPreHandler();
}

/**
 * Reasons class-validator words after the field's name (`email must be an email`), said the
 * way a person would, with an example of a value that passes.
 */
const READABLE_REASONS: Record<string, string> = {
  isEmail: 'expected an email address, such as jane@example.com.',
};

const readableReason = (constraints: Record<string, string>, message: string) => {
  const rule = Object.keys(constraints).find((name) => constraints[name] === message);
  return (rule && READABLE_REASONS[rule]) ?? `${message}.`;
};

/** What a body field's documentation says: whether it may be null, and the DTO of its object(s). */
interface FieldRule {
  nullable: boolean;
  /** The DTO of the field's object, or of each element when `isArray`. */
  nested?: { prototype: object };
  isArray: boolean;
}

const fieldRulesByDto = new Map<object, Map<string, FieldRule>>();

/** The documented fields of a DTO class (inherited and mapped-type fields included), read once. */
function fieldRules(dto: { prototype: object }): Map<string, FieldRule> {
  let rules = fieldRulesByDto.get(dto);
  if (rules) return rules;
  rules = new Map();
  const names = (Reflect.getMetadata(DECORATORS.API_MODEL_PROPERTIES_ARRAY, dto.prototype) ?? []) as string[];
  for (const entry of names) {
    const name = entry.replace(/^:/, '');
    const meta = (Reflect.getMetadata(DECORATORS.API_MODEL_PROPERTIES, dto.prototype, name) ?? {}) as {
      nullable?: boolean;
      type?: unknown;
      isArray?: boolean;
    };
    // `type` is a class, or a thunk returning one (no prototype of its own).
    let type = meta.type;
    if (typeof type === 'function' && !type.prototype) type = (type as () => unknown)();
    const nested =
      typeof type === 'function' && Reflect.getMetadata(DECORATORS.API_MODEL_PROPERTIES_ARRAY, type.prototype)
        ? (type as { prototype: object })
        : undefined;
    rules.set(name, { nullable: meta.nullable === true, nested, isArray: meta.isArray === true });
  }
  fieldRulesByDto.set(dto, rules);
  return rules;
}

/**
 * What class-validator lets through but the documented shape refuses, as the first offending path
 * and its reason: `null` for a field not documented as nullable (@IsOptional() lets null through
 * like an absent field, but only a nullable field may be cleared; anywhere else null would reach
 * the database as a missing required value), and an array where one object is expected
 * (@ValidateNested() accepts both).
 */
function firstShapeProblem(
  dto: { prototype: object },
  value: unknown,
  parent = '',
): { path: string; reason: string } | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const rules = fieldRules(dto);
  for (const [key, field] of Object.entries(value)) {
    const rule = rules.get(key);
    if (!rule) continue;
    const path = join(parent, key);
    if (field === null) {
      if (!rule.nullable) return { path, reason: 'null is not allowed here; omit the parameter instead' };
      continue;
    }
    if (!rule.nested) continue;
    if (Array.isArray(field) && !rule.isArray) return { path, reason: 'must be an object, not an array' };
    const items = Array.isArray(field) ? field : [field];
    for (let i = 0; i < items.length; i++) {
      const found = firstShapeProblem(rule.nested, items[i], Array.isArray(field) ? `${path}[${i}]` : path);
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * What no body or query may carry, whatever its DTO says: nesting deeper than MAX_JSON_DEPTH
 * (import rows reach this pipe without the body parser's check), and, in any string value or
 * key at any depth, a NUL character or a lone UTF-16 surrogate, which PostgreSQL cannot store.
 */
function refuseUnstorable(value: unknown): void {
  if (exceedsDepth(value)) throw tooDeep();
  const found = firstUnstorableString(value);
  if (found) {
    throw new PlatformError('parameter_invalid', {
      ...(found.path ? { param: found.path } : {}),
      hint: `Invalid ${found.path || 'request'}: ${found.reason}.`,
    }).asPreHandler();
  }
}

/** A transformed query value that can be kept and handed out again as a copy. */
const isKeepable = (value: unknown): boolean =>
  value === null ||
  value === undefined ||
  typeof value === 'string' ||
  typeof value === 'number' ||
  typeof value === 'boolean' ||
  value instanceof Date ||
  (Array.isArray(value) && value.every((v) => typeof v === 'string' || typeof v === 'number'));

const copyOf = (value: unknown): unknown =>
  value instanceof Date ? new Date(value.getTime()) : Array.isArray(value) ? value.slice() : value;

/** Most distinct query strings remembered per pipe, and the longest one remembered. */
const MAX_KNOWN_QUERIES = 1000;
const MAX_KNOWN_QUERY_CHARS = 512;

const isEmptyObject = (value: unknown): boolean => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  for (const key in value) if (Object.prototype.hasOwnProperty.call(value, key)) return false;
  return Object.getOwnPropertySymbols(value).length === 0;
};

/**
 * Validates bodies and queries against their DTOs: unknown fields are refused, types are
 * converted explicitly, null is refused for fields not documented as nullable (and an array
 * where one object is expected), and every failure names its parameter path.
 */
@Injectable()
export class ApiValidationPipe implements PipeTransform {
  constructor() {
    rememberValidationMetadata();
  }

  private readonly inner = new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    validationError: { target: true, value: true },
    // Every failed rule of a field is collected so that constraintMessage() can put the type first.
    stopAtFirstError: false,
    exceptionFactory: (errors) => toPlatformError(errors, 'request'),
  });

  /**
   * Query DTOs whose empty query is known to transform to a bare instance and to pass
   * validation (true), or not (false). A GET without query parameters (the common case) then
   * skips class-transformer and class-validator, which would find nothing to convert or refuse.
   */
  private readonly emptyQueryOk = new Map<unknown, boolean>();

  /**
   * Queries that passed, by DTO and query text, with their transformed fields: a list asked for
   * with the same parameters again (`?limit=20`, the same filters) gets a new instance with the
   * same fields instead of another class-transformer and class-validator run, which find the same
   * answer for the same input. Only fields of plain values (strings, numbers, booleans, dates,
   * arrays of strings or numbers) are kept; failures are never kept.
   */
  private readonly knownQueries = new Map<unknown, Map<string, [string, unknown][]>>();

  /** A new instance with the fields of a query that passed before (undefined: not one). */
  private knownQuery(metatype: new () => object, text: string): object | undefined {
    const fields = this.knownQueries.get(metatype)?.get(text);
    if (!fields) return undefined;
    const instance = new metatype() as Record<string, unknown>;
    for (const [name, field] of fields) instance[name] = copyOf(field);
    return instance;
  }

  private async transformQuery(value: object, metatype: new () => object, metadata: ArgumentMetadata) {
    const text = JSON.stringify(value);
    if (text.length > MAX_KNOWN_QUERY_CHARS) return this.inner.transform(value, metadata) as Promise<unknown>;
    const known = this.knownQuery(metatype, text);
    if (known) return known;
    const result: unknown = await this.inner.transform(value, metadata);
    if (result instanceof metatype && Object.getPrototypeOf(result) === metatype.prototype) {
      const entries = Object.entries(result);
      if (entries.every(([, field]) => isKeepable(field))) {
        let remembered = this.knownQueries.get(metatype);
        if (!remembered) this.knownQueries.set(metatype, (remembered = new Map()));
        if (remembered.size >= MAX_KNOWN_QUERIES) remembered.clear();
        remembered.set(
          text,
          entries.map(([name, field]) => [name, copyOf(field)]),
        );
      }
    }
    return result;
  }

  /**
   * What the route's handler gets. The common cases answer without a promise (Nest awaits
   * whatever a pipe returns): a string path parameter, an empty query known to pass, a query
   * already validated.
   */
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    if (metadata.type === 'param' && metadata.metatype === String) return value;
    const { metatype } = metadata;
    if (metadata.type === 'query' && typeof metatype === 'function' && metatype !== Object) {
      if (isEmptyObject(value)) {
        if (this.emptyQueryOk.get(metatype)) return new (metatype as new () => object)();
      } else if (typeof value === 'object' && value !== null) {
        const text = JSON.stringify(value);
        if (text.length <= MAX_KNOWN_QUERY_CHARS) {
          const known = this.knownQuery(metatype as new () => object, text);
          if (known) return known;
        }
      }
    }
    return this.validate(value, metadata);
  }

  private async validate(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'query' && typeof metadata.metatype === 'function' && isEmptyObject(value)) {
      const metatype = metadata.metatype as new () => object;
      const known = this.emptyQueryOk.get(metatype);
      if (known) return new metatype();
      if (known === undefined) {
        let result: unknown;
        try {
          result = await this.inner.transform(value, metadata);
        } catch (error) {
          this.emptyQueryOk.set(metatype, false);
          throw error;
        }
        this.emptyQueryOk.set(metatype, result instanceof metatype && Reflect.ownKeys(result).length === 0);
        return result;
      }
    }
    if (metadata.type === 'body') {
      // No body at all is an empty object; a body that is JSON but not an object (null, an
      // array, a number, a string, a boolean) is refused, never read as an empty object.
      if (value === undefined) value = {};
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        throw new PlatformError('parameter_invalid', {
          param: 'body',
          hint: `The request body must be a JSON object, not ${jsonTypeOf(value)}.`,
        }).asPreHandler();
      }
    }
    if (metadata.type === 'param' && metadata.metatype === String) return value;
    if (metadata.type === 'body' || metadata.type === 'query') refuseUnstorable(value);
    if (
      metadata.type === 'query' &&
      typeof metadata.metatype === 'function' &&
      typeof value === 'object' &&
      value !== null &&
      metadata.metatype !== Object
    ) {
      return this.transformQuery(value, metadata.metatype as new () => object, metadata);
    }
    const result: unknown = await this.inner.transform(value, metadata);
    if (metadata.type === 'body' && typeof metadata.metatype === 'function') {
      const problem = firstShapeProblem(metadata.metatype, value);
      if (problem) {
        throw new PlatformError('parameter_invalid', {
          param: problem.path,
          hint: `Invalid ${problem.path}: ${problem.reason}.`,
        }).asPreHandler();
      }
      const repeated = firstRepeatedItem(metadata.metatype, value);
      if (repeated) throw new PlatformError('parameter_invalid', repeated).asPreHandler();
    }
    return result;
  }
}
