import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsNotEmpty, IsOptional, IsString } from 'class-validator';
import type { CrossFieldRule } from '#platform/http/cross-field-rules';
import { MaxChars } from '#platform/http/text-length';

export const MAX_SERIALS = 1000;
export const SERIAL_MAX_LENGTH = 120;

/** A request's list of serial numbers names each serial once (400 naming `serial_numbers[i]`). */
export const DISTINCT_SERIALS: CrossFieldRule = {
  kind: 'distinct',
  field: 'serial_numbers',
  param: 'serial_numbers',
  sentence: 'Each serial number appears once in serial_numbers.',
};

/**
 * The serial numbers of all the items of the list `field` together name each serial once (400
 * naming `<field>[i].serial_numbers[j]`).
 */
export const distinctSerialsAcross = (field: string): CrossFieldRule => ({
  kind: 'distinct',
  field,
  key: 'serial_numbers[]',
  param: field,
  sentence: `Each serial number appears once in the request, across ${field}[].serial_numbers.`,
});

/** An optional list of serial numbers in a request body (one per unit of a serial-tracked product). */
export const SerialNumbersField = (description = 'One per unit for serial-tracked products.') =>
  applyDecorators(
    ApiPropertyOptional({ type: [String], maxItems: MAX_SERIALS, description }),
    IsOptional(),
    IsArray(),
    ArrayMaxSize(MAX_SERIALS),
    IsString({ each: true }),
    IsNotEmpty({ each: true }),
    MaxChars(SERIAL_MAX_LENGTH, { each: true }),
  );
