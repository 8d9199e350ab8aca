import { ApiProperty } from '@nestjs/swagger';
import { NullableUuid, OptionalBoolean } from '#platform/http/dto-fields';

export class UpdateInventorySettingsDto {
  @OptionalBoolean({
    description: 'Let stock go below zero instead of 422 insufficient_stock (default false).',
  })
  allow_negative_stock?: boolean;

  @NullableUuid({
    type: String,
    description:
      'Where confirmed order lines commit stock (allocated, on_order); default: the oldest location.',
  })
  default_location_id?: string | null;
}

export class InventorySettingsResponse {
  @ApiProperty({ example: 'inventory_settings' }) object: string;
  @ApiProperty() allow_negative_stock: boolean;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) default_location_id: string | null;
  @ApiProperty() livemode: boolean;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}
