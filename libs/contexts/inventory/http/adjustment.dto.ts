import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  IsUUID,
  Max,
  MaxLength,
  Min,
  ValidateIf,
} from 'class-validator';
import { IsMoneyAmount } from '../../../platform/http/money.validator';
import { BalanceResponse } from './balance.dto';
import { SerialNumbersField } from './serial-numbers.validator';

const MAX_UNITS = 1_000_000_000;

/** Either `quantity` (a signed change) or `counted_quantity` (a cycle count). */
export class CreateAdjustmentDto {
  @ApiProperty({ format: 'uuid' }) @IsUUID() product_id: string;

  @ApiPropertyOptional({ format: 'uuid', nullable: true, type: String })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsUUID()
  variant_id?: string | null;

  @ApiProperty({ format: 'uuid', description: 'A location (GET /locations).' }) @IsUUID() location_id: string;

  @ApiPropertyOptional({
    type: 'integer',
    description: 'Signed change of on_hand (not 0).',
    minimum: -MAX_UNITS,
    maximum: MAX_UNITS,
  })
  @IsOptional()
  @IsInt()
  @Min(-MAX_UNITS)
  @Max(MAX_UNITS)
  quantity?: number;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: MAX_UNITS,
    description: 'The quantity counted: on_hand is brought to it (type cycle_count).',
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(MAX_UNITS)
  counted_quantity?: number;

  @ApiProperty({ maxLength: 500, example: 'Damaged in storage' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(500)
  reason: string;

  @ApiPropertyOptional({
    minimum: 0,
    description: 'Cost of one added unit; increases only (default: the current average).',
  })
  @IsOptional()
  @IsMoneyAmount()
  @Min(0)
  unit_cost?: number;

  @SerialNumbersField(
    'Serial-tracked products: the serials added (created available) or removed (retired to end_of_life).',
  )
  serial_numbers?: string[];

  @ApiPropertyOptional({ maxLength: 120 }) @IsOptional() @IsString() @MaxLength(120) lot_number?: string;
}

export class AdjustmentResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'inventory_adjustment' }) object: string;
  @ApiProperty({ enum: ['adjustment', 'cycle_count'] }) type: string;
  @ApiProperty({ format: 'uuid' }) product_id: string;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) variant_id: string | null;
  @ApiProperty({ format: 'uuid' }) location_id: string;
  @ApiProperty({ type: 'integer', description: 'The change applied (0 when a count matched).' })
  quantity: number;
  @ApiProperty({ type: 'integer', nullable: true }) counted_quantity: number | null;
  @ApiProperty() reason: string;
  @ApiProperty({ nullable: true, type: Number }) unit_cost: number | null;
  @ApiProperty({ nullable: true, type: Number }) value: number | null;
  @ApiProperty({ type: [String] }) serial_numbers: string[];
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) transaction_id: string | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) journal_entry_id: string | null;
  @ApiProperty({ type: BalanceResponse }) balance: BalanceResponse;
  @ApiProperty() livemode: boolean;
  @ApiProperty({ format: 'date-time' }) created_at: string;
}
