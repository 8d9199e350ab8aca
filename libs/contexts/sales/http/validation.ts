import { ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import { ValidateIf } from 'class-validator';
import { fieldOf } from '#platform/http/dto-fields';

/** The largest money amount a sales body accepts (the numeric(19,4) columns hold 15 integer digits). */
export const MAX_AMOUNT = 999_999_999_999_999;

/** A query flag: `true` and `false` become booleans; anything else is left for @IsBoolean() to refuse. */
export const toBoolean = ({ value }: { value: unknown }) =>
  value === 'true' ? true : value === 'false' ? false : value;

/** The field may be absent; when present it must pass the other rules (null included, so null is refused). */
export const Optional = () => ValidateIf((_, value) => value !== undefined);

/** A documented field that may be omitted but not sent as null; when sent it must pass `rules`. */
export const OmittableField = (doc: ApiPropertyOptions, ...rules: PropertyDecorator[]) =>
  fieldOf(ApiPropertyOptional(doc), Optional(), ...rules);
