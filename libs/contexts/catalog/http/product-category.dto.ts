import { ApiProperty } from '@nestjs/swagger';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { DESCRIPTION_MAX, NAME_MAX } from '../domain/product';
import { metadataDoc, OptionalMetadata } from './catalog-validators';
import {
  NullableText,
  NullableUuid,
  OptionalNonEmptyText,
  OptionalUuid,
  RequiredText,
} from '#platform/http/dto-fields';
import { ResourceResponse } from '#platform/http/response-schema';

const METADATA_EXAMPLE = { erp_ref: 'CAT-7' };

class CategoryFieldsDto {
  @NullableText(DESCRIPTION_MAX, { maxLength: DESCRIPTION_MAX }) description?: string | null;

  @NullableUuid({ description: 'Parent category of the same entity and mode; null makes it a root.' })
  parent_id?: string | null;

  @OptionalMetadata(
    METADATA_EXAMPLE,
    'On update, merged into the current metadata; "" or null removes a key.',
  )
  metadata?: Record<string, string | null>;
}

export class CreateProductCategoryDto extends CategoryFieldsDto {
  @RequiredText(NAME_MAX, { example: 'Hardware', maxLength: NAME_MAX }) name: string;
}

export class UpdateProductCategoryDto extends CategoryFieldsDto {
  @OptionalNonEmptyText(NAME_MAX, { example: 'Hardware', maxLength: NAME_MAX }) name?: string;
}

export class ProductCategoryListQueryDto extends ListQueryDto {
  @OptionalUuid({ description: 'Only the direct children of this category.' }) parent_id?: string;
}

@ResourceResponse('product_category')
export class ProductCategoryResponse {
  @ApiProperty({ example: 'Hardware' }) name: string;
  @ApiProperty({ nullable: true, type: String, example: 'Tools and fasteners' }) description: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'uuid', description: 'Expandable: expand[]=parent.' })
  parent_id: string | null;
  @ApiProperty(metadataDoc(METADATA_EXAMPLE)) metadata: Record<string, string>;
}
