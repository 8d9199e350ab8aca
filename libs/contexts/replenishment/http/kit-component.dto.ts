import { ApiProperty } from '@nestjs/swagger';
import { IsInt, Max, Min } from 'class-validator';
import { MAX_QUANTITY_PER_KIT } from '../domain/kit-components';
import { OptionalField, RequiredUuid } from '#platform/http/dto-fields';

export class CreateKitComponentDto {
  @RequiredUuid({ description: 'A stocked product (not a service); a kit may contain kits, never itself.' })
  component_product_id: string;

  @ApiProperty({ minimum: 1, maximum: MAX_QUANTITY_PER_KIT, example: 2, description: 'Units per kit.' })
  @IsInt()
  @Min(1)
  @Max(MAX_QUANTITY_PER_KIT)
  quantity: number;
}

export class UpdateKitComponentDto {
  @OptionalField({ minimum: 1, maximum: MAX_QUANTITY_PER_KIT }, IsInt(), Min(1), Max(MAX_QUANTITY_PER_KIT))
  quantity?: number;
}

export class KitComponentResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'kit_component' }) object: string;
  @ApiProperty({ format: 'uuid' }) kit_product_id: string;
  @ApiProperty({ format: 'uuid' }) component_product_id: string;
  @ApiProperty() quantity: number;
  @ApiProperty() livemode: boolean;
  @ApiProperty() created_at: string;
  @ApiProperty() updated_at: string;
}
