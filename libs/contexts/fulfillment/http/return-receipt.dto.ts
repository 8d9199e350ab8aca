import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  IsUUID,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';

export class ReturnItemDto {
  @ApiProperty({ format: 'uuid', description: 'An item of the shipped package.' })
  @IsUUID()
  package_item_id: string;
  @ApiProperty({ type: 'integer', minimum: 1 }) @IsInt() @Min(1) @Max(1_000_000) quantity: number;
  @ApiPropertyOptional({
    type: [String],
    description: 'One per unit of a serial-tracked item, among those it shipped.',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(1000)
  @IsString({ each: true })
  @IsNotEmpty({ each: true })
  @MaxLength(120, { each: true })
  serial_numbers?: string[];
  @ApiPropertyOptional({
    enum: ['available', 'damaged', 'quarantined'],
    default: 'available',
    description: 'Serial status after the return.',
  })
  @IsOptional()
  @IsIn(['available', 'damaged', 'quarantined'])
  disposition?: 'available' | 'damaged' | 'quarantined';
}

export class ReceiveReturnDto {
  @ApiProperty({ format: 'uuid', description: 'A shipped or delivered package of the return account.' })
  @IsUUID()
  package_id: string;
  @ApiPropertyOptional({
    format: 'uuid',
    description: "Where the goods come back (default: the package's location).",
  })
  @IsOptional()
  @IsUUID()
  location_id?: string;
  @ApiProperty({ type: [ReturnItemDto] })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(500)
  @ValidateNested({ each: true })
  @Type(() => ReturnItemDto)
  items: ReturnItemDto[];
}

export class ReturnReceiptResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'return_receipt' }) object: string;
  @ApiProperty({ format: 'uuid' }) return_id: string;
  @ApiProperty({ format: 'uuid' }) package_id: string;
  @ApiProperty({ format: 'uuid' }) order_id: string;
  @ApiProperty({ format: 'uuid' }) location_id: string;
  @ApiProperty({ type: 'array', items: { type: 'object' } }) lines: Record<string, unknown>[];
  @ApiProperty({ description: 'Inventory value back at cost (COGS_REVERSAL).' }) total_value: number;
  @ApiProperty({ description: 'Revenue and tax reversed (RETURN).' }) revenue_reversed: number;
  @ApiProperty({ example: 'returned' }) package_status: string;
  @ApiProperty() livemode: boolean;
  @ApiProperty({ format: 'date-time' }) created_at: string;
}
