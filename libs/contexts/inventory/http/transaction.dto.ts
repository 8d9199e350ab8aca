import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsISO8601, IsOptional, IsUUID } from 'class-validator';
import { ListQueryDto } from '../../../platform/http/list/list-query.dto';
import { MOVEMENT_TYPES } from '../domain/stock';

export class TransactionListQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() @IsUUID() product_id?: string;
  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() @IsUUID() location_id?: string;
  @ApiPropertyOptional({ enum: MOVEMENT_TYPES }) @IsOptional() @IsIn(MOVEMENT_TYPES) type?: string;

  @ApiPropertyOptional({
    format: 'uuid',
    description: 'The source document (adjustment, transfer, purchase order, package, return).',
  })
  @IsOptional()
  @IsUUID()
  source_id?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Only transactions created strictly after.' })
  @IsOptional()
  @IsISO8601({ strict: true })
  created_after?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Only transactions created strictly before.' })
  @IsOptional()
  @IsISO8601({ strict: true })
  created_before?: string;
}

export class TransactionResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'inventory_transaction' }) object: string;
  @ApiProperty({ format: 'uuid' }) balance_id: string;
  @ApiProperty({ format: 'uuid' }) product_id: string;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) variant_id: string | null;
  @ApiProperty({ format: 'uuid' }) location_id: string;
  @ApiProperty({ enum: MOVEMENT_TYPES }) type: string;
  @ApiProperty({ type: 'integer', description: 'Signed: positive into stock, negative out.' })
  quantity: number;
  @ApiProperty() unit_cost: number;
  @ApiProperty({ description: 'Signed value at cost.' }) value: number;
  @ApiProperty({ nullable: true, type: String, example: 'purchase_order' }) source_type: string | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) source_id: string | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) order_id: string | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) order_item_id: string | null;
  @ApiProperty({ nullable: true, type: String }) reason: string | null;
  @ApiProperty({ type: [String] }) serial_numbers: string[];
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) journal_entry_id: string | null;
  @ApiProperty() livemode: boolean;
  @ApiProperty({ format: 'date-time' }) occurred_at: string;
  @ApiProperty({ format: 'date-time' }) created_at: string;
}
