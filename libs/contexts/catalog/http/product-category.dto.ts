import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsNotEmpty, IsOptional, IsString, IsUUID, MaxLength, ValidateIf } from 'class-validator';
import { ListQueryDto } from '../../../platform/http/list/list-query.dto';
import { DESCRIPTION_MAX, NAME_MAX } from '../domain/product';
import { IsMetadata } from './catalog-validators';

const notNull = (_: unknown, v: unknown) => v !== null;
const METADATA_DOC = {
  type: 'object',
  additionalProperties: { type: 'string' },
  example: { erp_ref: 'CAT-7' },
} as const;

class CategoryFieldsDto {
  @ApiPropertyOptional({ nullable: true, maxLength: DESCRIPTION_MAX })
  @IsOptional()
  @ValidateIf(notNull)
  @IsString()
  @MaxLength(DESCRIPTION_MAX)
  description?: string | null;

  @ApiPropertyOptional({
    format: 'uuid',
    nullable: true,
    description: 'Parent category of the same entity and mode; null makes it a root.',
  })
  @IsOptional()
  @ValidateIf(notNull)
  @IsUUID()
  parent_id?: string | null;

  @ApiPropertyOptional({
    ...METADATA_DOC,
    description: 'On update, merged into the current metadata; "" or null removes a key.',
  })
  @IsOptional()
  @IsMetadata()
  metadata?: Record<string, string | null>;
}

export class CreateProductCategoryDto extends CategoryFieldsDto {
  @ApiProperty({ example: 'Hardware', maxLength: NAME_MAX })
  @IsString()
  @IsNotEmpty()
  @MaxLength(NAME_MAX)
  name: string;
}

export class UpdateProductCategoryDto extends CategoryFieldsDto {
  @ApiPropertyOptional({ example: 'Hardware', maxLength: NAME_MAX })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(NAME_MAX)
  name?: string;
}

export class ProductCategoryListQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ format: 'uuid', description: 'Only the direct children of this category.' })
  @IsOptional()
  @IsUUID()
  parent_id?: string;
}

export class ProductCategoryResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'product_category' }) object: string;
  @ApiProperty({ example: 'Hardware' }) name: string;
  @ApiProperty({ nullable: true, type: String, example: 'Tools and fasteners' }) description: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'uuid', description: 'Expandable: expand[]=parent.' })
  parent_id: string | null;
  @ApiProperty(METADATA_DOC) metadata: Record<string, string>;
  @ApiProperty() livemode: boolean;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}
