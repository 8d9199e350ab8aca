import type { Type as Class } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsISO8601,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  Min,
  ValidateBy,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { MaxChars } from './text-length';
import { IsId } from './id.validator';
import { toBoolean } from './list/list-query.dto';
import { IsMoneyAmount } from './money.validator';

/**
 * Request-body and query fields built from their parts: the OpenAPI documentation, the optional /
 * nullable rule and the value rules, declared once for the shapes every context repeats.
 *
 * The parts are applied as TypeScript applies a stack of decorators written in the same order (the
 * last one first). class-validator keeps a field's rules in the order they are applied and the
 * validation pipe reports the first one that fails, so `fieldOf(A, B, C)` validates and documents
 * exactly as `@A @B @C` written on the property.
 */
export const fieldOf =
  (...parts: PropertyDecorator[]): PropertyDecorator =>
  (target, key) => {
    for (let i = parts.length - 1; i >= 0; i--) parts[i](target, key);
  };

type Doc = ApiPropertyOptions;
type Values = readonly string[];

const notNull = (_: object, value: unknown) => value !== null;

/**
 * A `YYYY-MM-DD` calendar date: year 1000-9999, month 01-12, day 01-31 (the validators also refuse a day the month
 * does not have, as `format: date` does). The description shows this pattern with `format: date`.
 */
export const CALENDAR_DATE_PATTERN = /^[1-9]\d{3}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])$/;

/**
 * An RFC 3339 date-time as the validators take it: upper-case `T` and `Z`, seconds 00-59 (no leap
 * second), year 1000-9999, an offset `Z` or `+hh:mm` / `-hh:mm`. The description shows this
 * pattern with `format: date-time`.
 */
export const DATE_TIME_PATTERN =
  /^[1-9]\d{3}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d+)?(?:Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/;

/** The rules of a date-time field: a real instant (strict ISO 8601) written as DATE_TIME_PATTERN says. */
export const IsDateTime = (): PropertyDecorator =>
  fieldOf(
    IsISO8601({ strict: true }),
    Matches(DATE_TIME_PATTERN, {
      message: '$property must be an RFC 3339 date-time such as 2026-11-20T09:30:00Z',
    }),
  );

/**
 * A three-letter ISO 4217 currency code as every route takes it: any case (`usd` is `USD`); the
 * field is upper-cased before the services see it, so it is stored and returned upper-case. The
 * description shows this pattern on every currency field of a request.
 */
export const CURRENCY_PATTERN = /^[A-Za-z]{3}$/;

/** A value matching CURRENCY_PATTERN, upper-cased; anything else is left for the rules to refuse. */
const upperCurrency = ({ value }: { value: unknown }) =>
  typeof value === 'string' && CURRENCY_PATTERN.test(value) ? value.toUpperCase() : value;

/** The rules of a currency field: a string matching CURRENCY_PATTERN, passed on upper-cased. */
export const IsCurrency = (): PropertyDecorator =>
  fieldOf(
    Transform(upperCurrency),
    IsString(),
    Matches(CURRENCY_PATTERN, {
      message: '$property must be a three-letter ISO 4217 code such as USD (any case; stored upper-case)',
    }),
  );

/** A required field checked by `rules`. */
export const RequiredField = (doc: Doc, ...rules: PropertyDecorator[]) => fieldOf(ApiProperty(doc), ...rules);

/** An optional field: it may be omitted; when sent it must pass `rules`. */
export const OptionalField = (doc: Doc, ...rules: PropertyDecorator[]) =>
  fieldOf(ApiPropertyOptional(doc), IsOptional(), ...rules);

/** The field may be absent or null; otherwise it must pass the other rules. */
const OptionalNullable = () => ValidateIf((_, value) => value !== undefined && value !== null);

/** A documented nullable field: it may be omitted or null (clearing it); otherwise it must pass `rules`. */
export const ClearableField = (doc: Doc, ...rules: PropertyDecorator[]) =>
  fieldOf(ApiPropertyOptional({ nullable: true, ...doc }), OptionalNullable(), ...rules);

/**
 * An optional field documented as nullable: omitted leaves the value as it is, `null` clears it,
 * anything else must pass `rules`.
 */
export const NullableField = (doc: Doc, ...rules: PropertyDecorator[]) =>
  fieldOf(ApiPropertyOptional({ nullable: true, ...doc }), IsOptional(), ValidateIf(notNull), ...rules);

/** An optional strict ISO 8601 instant bounding the creation time of what a list holds (exclusive). */
const createdBound = (side: 'after' | 'before', records?: string) =>
  OptionalField(
    records
      ? { format: 'date-time', description: `Only ${records} created strictly ${side}.` }
      : { format: 'date-time' },
    IsDateTime(),
  );

/** The `created_after` filter of a list of `records` ("Only returns created strictly after."). */
export const CreatedAfter = (records?: string) => createdBound('after', records);

/** The `created_before` filter of a list of `records` ("Only returns created strictly before."). */
export const CreatedBefore = (records?: string) => createdBound('before', records);

/** A required non-empty string of at most `maxLength` characters. */
export const RequiredText = (maxLength: number, doc: Doc = {}) =>
  RequiredField(doc, IsString(), IsNotEmpty(), MaxChars(maxLength));

/** An optional string of at most `maxLength` characters. */
export const OptionalText = (maxLength: number, doc: Doc = {}) =>
  OptionalField(doc, IsString(), MaxChars(maxLength));

/** An optional non-empty string of at most `maxLength` characters. */
export const OptionalNonEmptyText = (maxLength: number, doc: Doc = {}) =>
  OptionalField(doc, IsString(), IsNotEmpty(), MaxChars(maxLength));

/** A nullable string of at most `maxLength` characters (null clears it). */
export const NullableText = (maxLength: number, doc: Doc = {}) =>
  NullableField(doc, IsString(), MaxChars(maxLength));

/** The name of the rule RequiredUnless registers (the OpenAPI generator reads it). */
export const REQUIRED_UNLESS = 'requiredUnless';

/**
 * A field required (present and not null) unless the body's `field` is one of `values` (absent,
 * `field` counts as `fallback`); then it may be omitted or null. Anything sent must pass `rules`.
 * A missing or null value where it is required is 400 `parameter_missing`. The description says
 * the same, from the same rule: `if` `field` is one of `values`, `else` the field is required and
 * not null.
 */
export const RequiredUnless = (
  condition: { field: string; values: Values; fallback?: string },
  doc: Doc,
  ...rules: PropertyDecorator[]
) => {
  const { field, values, fallback } = condition;
  const exempt = (body: object) => {
    const given = (body as Record<string, unknown>)[field];
    return values.includes((given ?? fallback) as string);
  };
  const absent = (value: unknown) => value === undefined || value === null;
  return fieldOf(
    ApiPropertyOptional({ nullable: true, ...doc }),
    ValidateIf((body: object, value: unknown) => !(absent(value) && exempt(body))),
    ValidateBy({
      name: REQUIRED_UNLESS,
      constraints: [field, values, fallback],
      validator: {
        validate: (value, args) => !absent(value) || exempt(args?.object ?? {}),
        defaultMessage: () => `required unless ${field} is ${values.join(' or ')}`,
      },
    }),
    ...rules,
  );
};

/** The name of the rule EachOneOf registers (the OpenAPI generator reads it). */
export const EACH_ONE_OF = 'eachOneOf';

/**
 * Documents that each element of a list is one of `values()`, a list only known once the app has
 * started (the event catalog): the description shows it as the items' `enum`, read when the
 * document is generated. It checks nothing itself: the field's own check reads the same list.
 */
export const EachOneOf = (values: () => readonly string[]) =>
  ValidateBy(
    { name: EACH_ONE_OF, constraints: [values], validator: { validate: () => true } },
    { each: true },
  );

/** The name of the rule OneOf registers (the OpenAPI generator reads it as EachOneOf's). */
export const ONE_OF = 'oneOfList';

/**
 * Documents that a value is one of `values()`, a list only known once the app has started (the
 * event catalog): the description shows it as the field's `enum`. Like EachOneOf it checks
 * nothing itself: the field's own check reads the same list.
 */
export const OneOf = (values: () => readonly string[]) =>
  ValidateBy({ name: ONE_OF, constraints: [values], validator: { validate: () => true } });

/** A required id. */
export const RequiredUuid = (doc: Doc = {}) => RequiredField({ format: 'uuid', ...doc }, IsId());

/** An optional id (a body field or a query filter). */
export const OptionalUuid = (doc: Doc = {}) => OptionalField({ format: 'uuid', ...doc }, IsId());

/** A nullable id (null clears the reference). */
export const NullableUuid = (doc: Doc = {}) =>
  NullableField({ format: 'uuid', nullable: true, ...doc }, IsId());

/** A required value of `values`. */
export const RequiredEnum = (values: Values, doc: Doc = {}) =>
  RequiredField({ enum: values, ...doc }, IsIn(values));

/** An optional value of `values` (a body field or a query filter). */
export const OptionalEnum = (values: Values, doc: Doc = {}) =>
  OptionalField({ enum: values, ...doc }, IsIn(values));

/** A nullable value of `values`. */
export const NullableEnum = (values: Values, doc: Doc = {}) =>
  NullableField({ enum: values, nullable: true, ...doc }, IsIn(values));

/** An optional boolean. */
export const OptionalBoolean = (doc: Doc = {}) => OptionalField(doc, IsBoolean());

/** An optional boolean query parameter (`true`, `false`, `1` or `0`). */
export const BooleanFilter = (doc: Doc = {}) => OptionalField(doc, Transform(toBoolean), IsBoolean());

/** An optional currency code (`USD`, any case; see CURRENCY_PATTERN). */
export const OptionalCurrency = (doc: Doc = {}) => OptionalField(doc, IsCurrency());

/** A required money amount (see IsMoneyAmount) of at least `min`. */
export const RequiredMoney = (min: number, doc: Doc = {}) => RequiredField(doc, IsMoneyAmount(), Min(min));

/** An optional money amount of at least `min`. */
export const OptionalMoney = (min: number, doc: Doc = {}) => OptionalField(doc, IsMoneyAmount(), Min(min));

/** A nullable money amount of at least `min` (null clears it). */
export const NullableMoney = (min: number, doc: Doc = {}) => NullableField(doc, IsMoneyAmount(), Min(min));

/** A required array of `minItems` to `maxItems` objects, each validated as `item`. */
export const RequiredList = (item: Class, minItems: number, maxItems: number, doc: Doc = {}) =>
  RequiredField(
    { type: [item], ...doc },
    IsArray(),
    ArrayMinSize(minItems),
    ArrayMaxSize(maxItems),
    ValidateNested({ each: true }),
    Type(() => item),
  );
