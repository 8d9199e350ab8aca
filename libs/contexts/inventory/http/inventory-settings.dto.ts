import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional, IsUUID, ValidateIf } from 'class-validator';

export class UpdateInventorySettingsDto {
  @ApiPropertyOptional({
    description: 'Let stock go below zero instead of 422 insufficient_stock (default false).',
  })
  @IsOptional()
  @IsBoolean()
  allow_negative_stock?: boolean;

  @ApiPropertyOptional({
    format: 'uuid',
    nullable: true,
    type: String,
    description:
      'Where confirmed order lines commit stock (allocated, on_order); default: the oldest location.',
  })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsUUID()
  default_location_id?: string | null;
}

export class InventorySettingsResponse {
  @ApiProperty({ example: 'inventory_settings' }) object: string;
  @ApiProperty() allow_negative_stock: boolean;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) default_location_id: string | null;
  @ApiProperty() livemode: boolean;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}
