import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsDateString,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsString,
  Matches,
  Max,
  Min,
} from 'class-validator';
import { MaxChars } from '#platform/http/text-length';
import { SERIAL_STATUSES } from '../domain/serial';
import { DISTINCT_SERIALS, MAX_SERIALS, SERIAL_MAX_LENGTH } from './serial-numbers.validator';
import { CrossFieldRules } from '#platform/http/cross-field-rules';
import {
  CALENDAR_DATE_PATTERN,
  NullableField,
  NullableText,
  OptionalEnum,
  OptionalField,
  OptionalText,
  OptionalUuid,
  RequiredField,
} from '#platform/http/dto-fields';
import { ResourceResponse } from '#platform/http/response-schema';

/** The serial list pages by number, not by cursor (docs/reference/conventions.md). */
export class SerialListQueryDto {
  @OptionalUuid() product_id?: string;
  @OptionalEnum(SERIAL_STATUSES) status?: string;

  @OptionalUuid({ description: 'The header X-Location-Id, when sent, wins over this.' }) location_id?: string;

  @OptionalText(120, { maxLength: 120, description: 'Case-insensitive partial match on serial_number.' })
  q?: string;

  @OptionalField(
    { type: 'integer', minimum: 1, default: 1 },
    Type(() => Number),
    IsInt(),
    Min(1),
    Max(1_000_000),
  )
  page?: number;

  @OptionalField(
    { type: 'integer', minimum: 1, maximum: 250, default: 50 },
    Type(() => Number),
    IsInt(),
    Min(1),
    Max(250),
  )
  per_page?: number;
}

/** An optional date (YYYY-MM-DD) that null clears. */
const NullableDate = () =>
  NullableField(
    { type: String, format: 'date' },
    Matches(CALENDAR_DATE_PATTERN, { message: '$property must be a date (YYYY-MM-DD)' }),
    IsDateString({ strict: true }),
  );

export class UpdateSerialDto {
  @OptionalField(
    {
      enum: ['available', 'damaged', 'quarantined'],
      description:
        'A returned (or damaged, quarantined) unit becomes available, damaged or quarantined; other statuses follow stock operations.',
    },
    IsIn(SERIAL_STATUSES),
  )
  status?: (typeof SERIAL_STATUSES)[number];

  @NullableText(120, { type: String, maxLength: 120 }) lot_number?: string | null;

  @NullableDate()
  expiry_date?: string | null;

  @NullableDate()
  warranty_start_date?: string | null;

  @NullableDate()
  warranty_end_date?: string | null;

  @NullableDate()
  extended_warranty_end_date?: string | null;

  @NullableText(60, { type: String, maxLength: 60 }) warranty_status?: string | null;
}

/** Allocation and release name at least one serial number: the list is required (absent was a 500). */
@CrossFieldRules(DISTINCT_SERIALS)
export class SerialAllocationDto {
  @RequiredField(
    {
      type: [String],
      minItems: 1,
      maxItems: MAX_SERIALS,
      description: 'The serial numbers to allocate to (or release from) the line.',
    },
    IsArray(),
    ArrayMinSize(1),
    ArrayMaxSize(MAX_SERIALS),
    IsString({ each: true }),
    IsNotEmpty({ each: true }),
    MaxChars(SERIAL_MAX_LENGTH, { each: true }),
  )
  serial_numbers: string[];
}

@ResourceResponse('serial_number')
export class SerialResponse {
  @ApiProperty({ format: 'uuid' }) entity_id: string;
  @ApiProperty({ format: 'uuid' }) product_id: string;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) variant_id: string | null;
  @ApiProperty() serial_number: string;
  @ApiProperty({ enum: SERIAL_STATUSES }) status: string;
  @ApiProperty({ format: 'uuid', nullable: true, type: String, description: 'The location holding it.' })
  location_id: string | null;
  @ApiProperty({
    format: 'uuid',
    nullable: true,
    type: String,
    description: 'The order where it last moved.',
  })
  order_id: string | null;
  @ApiProperty({
    format: 'uuid',
    nullable: true,
    type: String,
    description: 'The order line it is allocated to.',
  })
  order_item_id: string | null;
  @ApiProperty({ nullable: true, type: String }) lot_number: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date' }) expiry_date: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date' }) warranty_start_date: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date' }) warranty_end_date: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date' }) extended_warranty_end_date: string | null;
  @ApiProperty({ nullable: true, type: String }) warranty_status: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) received_at: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) sold_at: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) returned_at: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) last_scanned_at: string | null;
}

export class LineSerialsResponse {
  @ApiProperty({ example: 'order_line_serials' }) object: string;
  @ApiProperty({ format: 'uuid' }) order_id: string;
  @ApiProperty({ format: 'uuid' }) order_item_id: string;
  @ApiProperty({ format: 'uuid' }) product_id: string;
  @ApiProperty({ type: 'integer' }) quantity: number;
  @ApiProperty({ type: [SerialResponse], description: 'The serials allocated to the line now.' })
  serials: SerialResponse[];
}

/** GET /inventory/serials answers numbered pages, not a cursor list. */
export class SerialPageResponse {
  @ApiProperty({ enum: ['list'], example: 'list' }) object: string;
  @ApiProperty({ type: [SerialResponse] }) data: SerialResponse[];
  @ApiProperty({ type: 'integer', minimum: 0, example: 2 }) total: number;
  @ApiProperty({ type: 'integer', minimum: 1, example: 1 }) page: number;
  @ApiProperty({ type: 'integer', minimum: 1, maximum: 250, example: 50 }) per_page: number;
  @ApiProperty({ type: 'integer', minimum: 0, example: 1 }) total_pages: number;
}
