import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsInt, IsNotEmpty, IsString, Max, Min } from 'class-validator';
import { MaxChars } from '#platform/http/text-length';
import {
  OptionalEnum,
  OptionalField,
  OptionalUuid,
  RequiredList,
  RequiredUuid,
} from '#platform/http/dto-fields';
import { ResourceResponse } from '#platform/http/response-schema';
import { CrossFieldRules } from '#platform/http/cross-field-rules';

export class ReturnItemDto {
  @RequiredUuid({ description: 'An item of the shipped package.' }) package_item_id: string;
  @ApiProperty({ type: 'integer', minimum: 1 }) @IsInt() @Min(1) @Max(1_000_000) quantity: number;
  @OptionalField(
    {
      type: [String],
      description: 'One per unit of a serial-tracked item, among those it shipped.',
    },
    IsArray(),
    ArrayMaxSize(1000),
    IsString({ each: true }),
    IsNotEmpty({ each: true }),
    MaxChars(120, { each: true }),
  )
  serial_numbers?: string[];
  @OptionalEnum(['available', 'damaged', 'quarantined'], {
    default: 'available',
    description: 'Serial status after the return.',
  })
  disposition?: 'available' | 'damaged' | 'quarantined';
}

@CrossFieldRules(
  {
    kind: 'distinct',
    field: 'items',
    key: 'package_item_id',
    param: 'items',
    sentence: 'Each package item appears once in items (package_item_id differs from item to item).',
  },
  {
    kind: 'distinct',
    field: 'items',
    key: 'serial_numbers[]',
    param: 'items',
    sentence: 'Each serial number appears once in the request, across items[].serial_numbers.',
  },
)
export class ReceiveReturnDto {
  @RequiredUuid({ description: 'A shipped or delivered package of the return account.' }) package_id: string;
  @OptionalUuid({ description: "Where the goods come back (default: the package's location)." })
  location_id?: string;
  @RequiredList(ReturnItemDto, 1, 500) items: ReturnItemDto[];
}

@ResourceResponse('return_receipt', { tail: ['livemode', 'created_at'] })
export class ReturnReceiptResponse {
  @ApiProperty({ format: 'uuid' }) return_id: string;
  @ApiProperty({ format: 'uuid' }) package_id: string;
  @ApiProperty({ format: 'uuid' }) order_id: string;
  @ApiProperty({ format: 'uuid' }) location_id: string;
  @ApiProperty({ type: 'array', items: { type: 'object' } }) lines: Record<string, unknown>[];
  @ApiProperty({ description: 'Inventory value back at cost (COGS_REVERSAL).' }) total_value: number;
  @ApiProperty({ description: 'Revenue and tax reversed (RETURN).' }) revenue_reversed: number;
  @ApiProperty({ example: 'returned' }) package_status: string;
}
