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
import { BalanceResponse } from './balance.dto';
import { SerialNumbersField } from './serial-numbers.validator';

export class CreateTransferDto {
  @ApiProperty({ format: 'uuid' }) @IsUUID() product_id: string;

  @ApiPropertyOptional({ format: 'uuid', nullable: true, type: String })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsUUID()
  variant_id?: string | null;

  @ApiProperty({ format: 'uuid' }) @IsUUID() from_location_id: string;
  @ApiProperty({ format: 'uuid' }) @IsUUID() to_location_id: string;

  @ApiProperty({ type: 'integer', minimum: 1, maximum: 1_000_000_000 })
  @IsInt()
  @Min(1)
  @Max(1_000_000_000)
  quantity: number;

  @ApiPropertyOptional({ maxLength: 500 })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(500)
  reason?: string;

  @SerialNumbersField('Serial-tracked products: the available serials that move (one per unit).')
  serial_numbers?: string[];
}

export class TransferResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'inventory_transfer' }) object: string;
  @ApiProperty({ format: 'uuid' }) product_id: string;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) variant_id: string | null;
  @ApiProperty({ format: 'uuid' }) from_location_id: string;
  @ApiProperty({ format: 'uuid' }) to_location_id: string;
  @ApiProperty({ type: 'integer' }) quantity: number;
  @ApiProperty({ description: 'The moving-average cost at which the units left.' }) unit_cost: number;
  @ApiProperty() value: number;
  @ApiProperty({ nullable: true, type: String }) reason: string | null;
  @ApiProperty({ type: [String] }) serial_numbers: string[];
  @ApiProperty({ example: { transfer_out: 'uuid', transfer_in: 'uuid' } })
  transaction_ids: { transfer_out: string; transfer_in: string };
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) journal_entry_id: string | null;
  @ApiProperty({ type: BalanceResponse }) from_balance: BalanceResponse;
  @ApiProperty({ type: BalanceResponse }) to_balance: BalanceResponse;
  @ApiProperty() livemode: boolean;
  @ApiProperty({ format: 'date-time' }) created_at: string;
}
