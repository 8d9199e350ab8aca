import { ApiProperty, ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import { IsInt, IsObject, Max, Min, ValidateIf } from 'class-validator';
import { fieldOf, IsCurrency } from '#platform/http/dto-fields';
import { requestMetadataSchema } from '#platform/http/metadata-doc';
import { IsMoneyAmount } from '#platform/http/money.validator';

/** The largest money amount a sales body accepts (the numeric(19,4) columns hold 15 integer digits). */
export const MAX_AMOUNT = 999_999_999_999_999;

/** A query flag: `true` and `false` become booleans; anything else is left for @IsBoolean() to refuse. */
export const toBoolean = ({ value }: { value: unknown }) =>
  value === 'true' ? true : value === 'false' ? false : value;

/** The rules of a money amount: 0 to MAX_AMOUNT, up to 4 decimals. */
export const IsAmount = () => fieldOf(IsMoneyAmount(), Min(0), Max(MAX_AMOUNT));

/** The rules of a percentage: 0 to 100, up to 4 decimals. */
export const IsPercent = () => fieldOf(IsMoneyAmount(), Min(0), Max(100));

/** The field may be absent; when present it must pass the other rules (null included, so null is refused). */
export const Optional = () => ValidateIf((_, value) => value !== undefined);

/** A documented field that may be omitted but not sent as null; when sent it must pass `rules`. */
export const OmittableField = (doc: ApiPropertyOptions, ...rules: PropertyDecorator[]) =>
  fieldOf(ApiPropertyOptional(doc), Optional(), ...rules);

/** The documentation of a `metadata` object (string values), with its example when given. */
const metadataDoc = (example?: Record<string, string>) =>
  ({
    type: 'object',
    additionalProperties: { type: 'string' },
    ...(example === undefined ? {} : { example }),
  }) satisfies ApiPropertyOptions;

/** A body's `metadata`: an object of string values (the services merge it key by key); may be omitted. */
export const MetadataField = (example?: Record<string, string>) =>
  OmittableField(requestMetadataSchema(example), IsObject());

/** A resource's `metadata` as responses show it: an object of string values. */
export const MetadataProperty = (example?: Record<string, string>) => ApiProperty(metadataDoc(example));

/** A body's `currency`: an ISO 4217 code; may be omitted (`description` says what it defaults to). */
export const CurrencyField = (description: string) =>
  OmittableField({ example: 'USD', description }, IsCurrency());

/** A card's expiry month, 1 to 12. */
export const ExpiryMonthField = (doc: ApiPropertyOptions) =>
  fieldOf(ApiProperty(doc), IsInt(), Min(1), Max(12));

/** A card's expiry year, 2000 to 2100. */
export const ExpiryYearField = (doc: ApiPropertyOptions) =>
  fieldOf(ApiProperty(doc), IsInt(), Min(2000), Max(2100));
