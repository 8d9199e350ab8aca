import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsString, Matches, Max, Min, ValidateNested } from 'class-validator';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import {
  AMOUNT_MAX,
  DESCRIPTION_MAX,
  DIMENSION_UNITS,
  NAME_MAX,
  PRODUCT_STATUSES,
  PRODUCT_TYPES,
  SKU_PATTERN,
  UNIT_OF_MEASURE_PATTERN,
  WEIGHT_UNITS,
} from '../domain/product';
import type { DimensionUnit, ProductStatus, ProductType, WeightUnit } from '../domain/product';
import { IsStringMap, metadataDoc, OptionalMetadata, STRING_MAP_VALUE_MAX } from './catalog-validators';
import { IsMoneyAmount } from '#platform/http/money.validator';
import {
  NullableField,
  NullableText,
  NullableUuid,
  OptionalBoolean,
  OptionalEnum,
  OptionalCurrency,
  OptionalField,
  RequiredField,
  OptionalNonEmptyText,
  OptionalUuid,
  RequiredEnum,
  RequiredText,
  RequiredUuid,
} from '#platform/http/dto-fields';
import { ResourceResponse } from '#platform/http/response-schema';

const METADATA_EXAMPLE = { erp_ref: 'ITEM-4411' };

/** A SKU field: documented with `example`, a string matching SKU_PATTERN. */
const skuDoc = (example: string) => ({
  example,
  pattern: SKU_PATTERN.source,
  description: 'Unique across products and variants of the entity and mode.',
});
const skuRules = () => [
  IsString(),
  Matches(SKU_PATTERN, {
    message: 'sku must be 1-64 characters: letters, digits and . _ - / # +, starting with a letter or digit',
  }),
];
const RequiredSku = (example: string) => RequiredField(skuDoc(example), ...skuRules());
const OptionalSku = (example: string) => OptionalField(skuDoc(example), ...skuRules());

export class WeightDto {
  @ApiProperty({ example: 1.25, minimum: 0 })
  @IsMoneyAmount()
  @Min(0)
  @Max(AMOUNT_MAX)
  value: number;

  @RequiredEnum(WEIGHT_UNITS, { example: 'kg' }) unit: WeightUnit;
}

export class DimensionsDto {
  @ApiProperty({ example: 30, minimum: 0 }) @IsMoneyAmount() @Min(0) @Max(AMOUNT_MAX) length: number;
  @ApiProperty({ example: 20, minimum: 0 }) @IsMoneyAmount() @Min(0) @Max(AMOUNT_MAX) width: number;
  @ApiProperty({ example: 10, minimum: 0 }) @IsMoneyAmount() @Min(0) @Max(AMOUNT_MAX) height: number;
  @RequiredEnum(DIMENSION_UNITS, { example: 'cm' }) unit: DimensionUnit;
}

export class CreateVariantDto {
  @RequiredSku('WID-001-RED') sku: string;

  @RequiredText(NAME_MAX, { example: 'Widget, red', maxLength: NAME_MAX }) name: string;

  @OptionalField(
    // Its key count and key length are described from IsStringMap's constraints.
    {
      type: 'object',
      additionalProperties: { type: 'string', maxLength: STRING_MAP_VALUE_MAX },
      example: { color: 'red' },
    },
    IsStringMap(20),
  )
  options?: Record<string, string>;

  @NullableField(
    { minimum: 0, example: 27.5, description: 'Null: the product list price applies.' },
    IsMoneyAmount(),
    Min(0),
    Max(AMOUNT_MAX),
  )
  list_price?: number | null;

  @NullableField({ minimum: 0, example: 11 }, IsMoneyAmount(), Min(0), Max(AMOUNT_MAX)) cost_price?:
    number | null;

  @NullableField({ type: WeightDto }, ValidateNested(), Type(() => WeightDto)) weight?: WeightDto | null;

  @OptionalMetadata(METADATA_EXAMPLE) metadata?: Record<string, string | null>;
}

export class UpdateVariantDto extends PartialType(CreateVariantDto) {
  @ApiPropertyOptional({
    ...metadataDoc(METADATA_EXAMPLE),
    description: 'Merged into the current metadata; "" or null removes a key.',
  })
  override metadata?: Record<string, string | null>;
}

/** Fields shared by create and update (update makes every field optional). */
class ProductFieldsDto {
  @NullableText(DESCRIPTION_MAX, { maxLength: DESCRIPTION_MAX }) description?: string | null;

  @OptionalEnum(PRODUCT_TYPES, { default: 'standard' }) type?: ProductType;

  @OptionalField(
    { example: 'ea', default: 'ea', description: 'Unit of measure code.' },
    IsString(),
    Matches(UNIT_OF_MEASURE_PATTERN, {
      message: 'unit_of_measure must be a code of 1-20 letters, digits, . _ -',
    }),
  )
  unit_of_measure?: string;

  @OptionalField(
    { example: 25, minimum: 0, default: 0, description: 'Up to 4 decimal places.' },
    IsMoneyAmount(),
    Min(0),
    Max(AMOUNT_MAX),
  )
  list_price?: number;

  @OptionalCurrency({ example: 'USD', description: "ISO 4217; defaults to the entity's base currency." })
  currency?: string;

  @NullableField({ minimum: 0, example: 10 }, IsMoneyAmount(), Min(0), Max(AMOUNT_MAX)) cost_price?:
    number | null;

  @NullableField({ type: WeightDto }, ValidateNested(), Type(() => WeightDto)) weight?: WeightDto | null;

  @NullableField({ type: DimensionsDto }, ValidateNested(), Type(() => DimensionsDto))
  dimensions?: DimensionsDto | null;

  @OptionalBoolean({
    default: false,
    description: 'Counts toward the declared value of shipping-label insurance.',
  })
  freight_insurance?: boolean;

  @OptionalBoolean({ default: false, description: 'Units are tracked by serial number.' })
  serial_tracked?: boolean;

  @NullableUuid() category_id?: string | null;

  @OptionalMetadata(METADATA_EXAMPLE, 'Merged into the current metadata; "" or null removes a key.')
  metadata?: Record<string, string | null>;
}

export class CreateProductDto extends ProductFieldsDto {
  @RequiredSku('WID-001') sku: string;

  @RequiredText(NAME_MAX, { example: 'Widget', maxLength: NAME_MAX }) name: string;

  @OptionalField(
    { type: [CreateVariantDto], maxItems: 100 },
    IsArray(),
    ArrayMaxSize(100),
    ValidateNested({ each: true }),
    Type(() => CreateVariantDto),
  )
  variants?: CreateVariantDto[];
}

export class UpdateProductDto extends ProductFieldsDto {
  @OptionalSku('WID-001') sku?: string;

  @OptionalNonEmptyText(NAME_MAX, { example: 'Widget', maxLength: NAME_MAX }) name?: string;
}

export class ProductListQueryDto extends ListQueryDto {
  @OptionalField({ description: 'Exact SKU.' }, IsString()) sku?: string;

  @OptionalEnum(PRODUCT_TYPES) type?: ProductType;

  @OptionalEnum(PRODUCT_STATUSES, { description: 'Absent: both statuses.' }) status?: ProductStatus;

  @OptionalUuid() category_id?: string;
}

export class AttachTagDto {
  @RequiredUuid({ description: 'A tag of the same entity and mode.' }) tag_id: string;
}

export class WeightResponse {
  @ApiProperty({ example: 1.25 }) value: number;
  @ApiProperty({ enum: WEIGHT_UNITS, example: 'kg' }) unit: string;
}

export class DimensionsResponse {
  @ApiProperty({ example: 30 }) length: number;
  @ApiProperty({ example: 20 }) width: number;
  @ApiProperty({ example: 10 }) height: number;
  @ApiProperty({ enum: DIMENSION_UNITS, example: 'cm' }) unit: string;
}

@ResourceResponse('product_variant')
export class ProductVariantResponse {
  @ApiProperty({ format: 'uuid' }) product_id: string;
  @ApiProperty({ example: 'WID-001-RED' }) sku: string;
  @ApiProperty({ example: 'Widget, red' }) name: string;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' }, example: { color: 'red' } })
  options: Record<string, string>;
  @ApiProperty({
    nullable: true,
    type: Number,
    example: 27.5,
    description: 'Null: the product list price applies.',
  })
  list_price: number | null;
  @ApiProperty({ nullable: true, type: Number, example: 11 }) cost_price: number | null;
  @ApiProperty({ nullable: true, type: WeightResponse }) weight: WeightResponse | null;
  @ApiProperty(metadataDoc(METADATA_EXAMPLE)) metadata: Record<string, string>;
}

@ResourceResponse('product', { tail: ['created_at', 'updated_at'] })
export class ProductResponse {
  @ApiProperty({ example: 'WID-001' }) sku: string;
  @ApiProperty({ example: 'Widget' }) name: string;
  @ApiProperty({ nullable: true, type: String, example: 'A sturdy widget.' }) description: string | null;
  @ApiProperty({ enum: PRODUCT_TYPES, example: 'standard' }) type: string;
  @ApiProperty({ enum: PRODUCT_STATUSES, example: 'active' }) status: string;
  @ApiProperty({ example: 'ea' }) unit_of_measure: string;
  @ApiProperty({ example: 25 }) list_price: number;
  @ApiProperty({ example: 'USD' }) currency: string;
  @ApiProperty({ nullable: true, type: Number, example: 10 }) cost_price: number | null;
  @ApiProperty({ nullable: true, type: WeightResponse }) weight: WeightResponse | null;
  @ApiProperty({ nullable: true, type: DimensionsResponse }) dimensions: DimensionsResponse | null;
  @ApiProperty({ example: false }) freight_insurance: boolean;
  @ApiProperty({ example: false }) serial_tracked: boolean;
  @ApiProperty({
    readOnly: true,
    example: 0,
    description:
      'Average units shipped or drawn into builds per day over every location (blended run rates), refreshed shortly after each movement that changes it; 0 until computed.',
  })
  demand_avg_per_day: number;
  @ApiProperty({
    nullable: true,
    type: String,
    format: 'uuid',
    description: 'Expandable: expand[]=category.',
  })
  category_id: string | null;
  @ApiProperty({ type: [String], description: 'Ids of attached tags, in attachment order.' })
  tag_ids: string[];
  @ApiProperty({ type: [ProductVariantResponse] }) variants: ProductVariantResponse[];
  @ApiProperty(metadataDoc(METADATA_EXAMPLE)) metadata: Record<string, string>;
  @ApiProperty() livemode: boolean;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) archived_at: string | null;
}

export class DeletedResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'product' }) object: string;
  @ApiProperty({ example: true }) deleted: boolean;
}
