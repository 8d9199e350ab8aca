import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';

export const MAX_SERIALS = 1000;
export const SERIAL_MAX_LENGTH = 120;

/** An optional list of serial numbers in a request body (one per unit of a serial-tracked product). */
export const SerialNumbersField = (description = 'One per unit for serial-tracked products.') =>
  applyDecorators(
    ApiPropertyOptional({ type: [String], maxItems: MAX_SERIALS, description }),
    IsOptional(),
    IsArray(),
    ArrayMaxSize(MAX_SERIALS),
    IsString({ each: true }),
    IsNotEmpty({ each: true }),
    MaxLength(SERIAL_MAX_LENGTH, { each: true }),
  );
