import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsNotEmpty,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { ListQueryDto } from '../../../platform/http/list/list-query.dto';
import {
  AMOUNT_MAX,
  CURRENCY_PATTERN,
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
import { IsMetadata, IsStringMap } from './catalog-validators';
import { IsMoneyAmount } from '../../../platform/http/money.validator';

const notNull = (_: unknown, v: unknown) => v !== null;
const METADATA_DOC = {
  type: 'object',
  additionalProperties: { type: 'string' },
  example: { erp_ref: 'ITEM-4411' },
} as const;

export class WeightDto {
  @ApiProperty({ example: 1.25, minimum: 0 })
  @IsMoneyAmount()
  @Min(0)
  @Max(AMOUNT_MAX)
  value: number;

  @ApiProperty({ enum: WEIGHT_UNITS, example: 'kg' })
  @IsIn(WEIGHT_UNITS)
  unit: WeightUnit;
}

export class DimensionsDto {
  @ApiProperty({ example: 30, minimum: 0 }) @IsMoneyAmount() @Min(0) @Max(AMOUNT_MAX) length: number;
  @ApiProperty({ example: 20, minimum: 0 }) @IsMoneyAmount() @Min(0) @Max(AMOUNT_MAX) width: number;
  @ApiProperty({ example: 10, minimum: 0 }) @IsMoneyAmount() @Min(0) @Max(AMOUNT_MAX) height: number;
  @ApiProperty({ enum: DIMENSION_UNITS, example: 'cm' }) @IsIn(DIMENSION_UNITS) unit: DimensionUnit;
}

export class CreateVariantDto {
  @ApiProperty({
    example: 'WID-001-RED',
    pattern: SKU_PATTERN.source,
    description: 'Unique across products and variants of the entity and mode.',
  })
  @IsString()
  @Matches(SKU_PATTERN, {
    message: 'sku must be 1-64 characters: letters, digits and . _ - / # +, starting with a letter or digit',
  })
  sku: string;

  @ApiProperty({ example: 'Widget, red', maxLength: NAME_MAX })
  @IsString()
  @IsNotEmpty()
  @MaxLength(NAME_MAX)
  name: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string' },
    example: { color: 'red' },
  })
  @IsOptional()
  @IsStringMap(20)
  options?: Record<string, string>;

  @ApiPropertyOptional({
    nullable: true,
    minimum: 0,
    example: 27.5,
    description: 'Null: the product list price applies.',
  })
  @IsOptional()
  @ValidateIf(notNull)
  @IsMoneyAmount()
  @Min(0)
  @Max(AMOUNT_MAX)
  list_price?: number | null;

  @ApiPropertyOptional({ nullable: true, minimum: 0, example: 11 })
  @IsOptional()
  @ValidateIf(notNull)
  @IsMoneyAmount()
  @Min(0)
  @Max(AMOUNT_MAX)
  cost_price?: number | null;

  @ApiPropertyOptional({ type: WeightDto, nullable: true })
  @IsOptional()
  @ValidateIf(notNull)
  @ValidateNested()
  @Type(() => WeightDto)
  weight?: WeightDto | null;

  @ApiPropertyOptional(METADATA_DOC)
  @IsOptional()
  @IsMetadata()
  metadata?: Record<string, string | null>;
}

export class UpdateVariantDto extends PartialType(CreateVariantDto) {
  @ApiPropertyOptional({
    ...METADATA_DOC,
    description: 'Merged into the current metadata; "" or null removes a key.',
  })
  override metadata?: Record<string, string | null>;
}

/** Fields shared by create and update (update makes every field optional). */
class ProductFieldsDto {
  @ApiPropertyOptional({ nullable: true, maxLength: DESCRIPTION_MAX })
  @IsOptional()
  @ValidateIf(notNull)
  @IsString()
  @MaxLength(DESCRIPTION_MAX)
  description?: string | null;

  @ApiPropertyOptional({ enum: PRODUCT_TYPES, default: 'standard' })
  @IsOptional()
  @IsIn(PRODUCT_TYPES)
  type?: ProductType;

  @ApiPropertyOptional({ example: 'ea', default: 'ea', description: 'Unit of measure code.' })
  @IsOptional()
  @IsString()
  @Matches(UNIT_OF_MEASURE_PATTERN, {
    message: 'unit_of_measure must be a code of 1-20 letters, digits, . _ -',
  })
  unit_of_measure?: string;

  @ApiPropertyOptional({ example: 25, minimum: 0, default: 0, description: 'Up to 4 decimal places.' })
  @IsOptional()
  @IsMoneyAmount()
  @Min(0)
  @Max(AMOUNT_MAX)
  list_price?: number;

  @ApiPropertyOptional({
    example: 'USD',
    pattern: '^[A-Z]{3}$',
    description: "ISO 4217; defaults to the entity's base currency.",
  })
  @IsOptional()
  @IsString()
  @Matches(CURRENCY_PATTERN, { message: 'currency must be an upper-case ISO 4217 code' })
  currency?: string;

  @ApiPropertyOptional({ nullable: true, minimum: 0, example: 10 })
  @IsOptional()
  @ValidateIf(notNull)
  @IsMoneyAmount()
  @Min(0)
  @Max(AMOUNT_MAX)
  cost_price?: number | null;

  @ApiPropertyOptional({ type: WeightDto, nullable: true })
  @IsOptional()
  @ValidateIf(notNull)
  @ValidateNested()
  @Type(() => WeightDto)
  weight?: WeightDto | null;

  @ApiPropertyOptional({ type: DimensionsDto, nullable: true })
  @IsOptional()
  @ValidateIf(notNull)
  @ValidateNested()
  @Type(() => DimensionsDto)
  dimensions?: DimensionsDto | null;

  @ApiPropertyOptional({
    default: false,
    description: 'Counts toward the declared value of shipping-label insurance.',
  })
  @IsOptional()
  @IsBoolean()
  freight_insurance?: boolean;

  @ApiPropertyOptional({ default: false, description: 'Units are tracked by serial number.' })
  @IsOptional()
  @IsBoolean()
  serial_tracked?: boolean;

  @ApiPropertyOptional({ format: 'uuid', nullable: true })
  @IsOptional()
  @ValidateIf(notNull)
  @IsUUID()
  category_id?: string | null;

  @ApiPropertyOptional({
    ...METADATA_DOC,
    description: 'Merged into the current metadata; "" or null removes a key.',
  })
  @IsOptional()
  @IsMetadata()
  metadata?: Record<string, string | null>;
}

export class CreateProductDto extends ProductFieldsDto {
  @ApiProperty({
    example: 'WID-001',
    pattern: SKU_PATTERN.source,
    description: 'Unique across products and variants of the entity and mode.',
  })
  @IsString()
  @Matches(SKU_PATTERN, {
    message: 'sku must be 1-64 characters: letters, digits and . _ - / # +, starting with a letter or digit',
  })
  sku: string;

  @ApiProperty({ example: 'Widget', maxLength: NAME_MAX })
  @IsString()
  @IsNotEmpty()
  @MaxLength(NAME_MAX)
  name: string;

  @ApiPropertyOptional({ type: [CreateVariantDto], maxItems: 100 })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @ValidateNested({ each: true })
  @Type(() => CreateVariantDto)
  variants?: CreateVariantDto[];
}

export class UpdateProductDto extends ProductFieldsDto {
  @ApiPropertyOptional({
    example: 'WID-001',
    pattern: SKU_PATTERN.source,
    description: 'Unique across products and variants of the entity and mode.',
  })
  @IsOptional()
  @IsString()
  @Matches(SKU_PATTERN, {
    message: 'sku must be 1-64 characters: letters, digits and . _ - / # +, starting with a letter or digit',
  })
  sku?: string;

  @ApiPropertyOptional({ example: 'Widget', maxLength: NAME_MAX })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(NAME_MAX)
  name?: string;
}

export class ProductListQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ description: 'Exact SKU.' })
  @IsOptional()
  @IsString()
  sku?: string;

  @ApiPropertyOptional({ enum: PRODUCT_TYPES })
  @IsOptional()
  @IsIn(PRODUCT_TYPES)
  type?: ProductType;

  @ApiPropertyOptional({ enum: PRODUCT_STATUSES, description: 'Absent: both statuses.' })
  @IsOptional()
  @IsIn(PRODUCT_STATUSES)
  status?: ProductStatus;

  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUUID()
  category_id?: string;
}

export class AttachTagDto {
  @ApiProperty({ format: 'uuid', description: 'A tag of the same entity and mode.' })
  @IsUUID()
  tag_id: string;
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

export class ProductVariantResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'product_variant' }) object: string;
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
  @ApiProperty(METADATA_DOC) metadata: Record<string, string>;
  @ApiProperty() livemode: boolean;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}

export class ProductResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'product' }) object: string;
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
    description: 'Average units per day, maintained by inventory; 0 until computed.',
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
  @ApiProperty(METADATA_DOC) metadata: Record<string, string>;
  @ApiProperty() livemode: boolean;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) archived_at: string | null;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}

export class DeletedResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'product' }) object: string;
  @ApiProperty({ example: true }) deleted: boolean;
}
