import { ApiProperty, OmitType, PartialType } from '@nestjs/swagger';
import { IsInt, Max, Min } from 'class-validator';
import {
  NullableMoney,
  NullableText,
  OptionalBoolean,
  OptionalCurrency,
  OptionalField,
  RequiredUuid,
} from '#platform/http/dto-fields';

export const QUANTITY_MAX = 1_000_000_000;

export class CreateProductVendorDto {
  @RequiredUuid({ description: 'An active account of the entity acting as vendor.' })
  vendor_account_id: string;

  @NullableText(64, { maxLength: 64, example: 'ACME-4411' }) vendor_sku?: string | null;

  @NullableMoney(0, { minimum: 0, example: 4.25 }) unit_cost?: number | null;

  @OptionalCurrency({ example: 'USD', description: "ISO 4217; default: the vendor account's currency." })
  currency?: string;

  @OptionalField({ minimum: 0, maximum: 3650, default: 0 }, IsInt(), Min(0), Max(3650))
  lead_time_days?: number;

  @OptionalField({ minimum: 0, maximum: QUANTITY_MAX, default: 1 }, IsInt(), Min(0), Max(QUANTITY_MAX))
  min_order_quantity?: number;

  @OptionalField(
    {
      minimum: 1,
      maximum: QUANTITY_MAX,
      default: 1,
      description: 'Orders are rounded up to a multiple of this (case or pallet size).',
    },
    IsInt(),
    Min(1),
    Max(QUANTITY_MAX),
  )
  order_multiple?: number;

  @OptionalBoolean({
    description:
      "One preferred vendor per product: setting it clears the others'. Default: true for a product's first vendor.",
  })
  is_preferred?: boolean;
}

export class UpdateProductVendorDto extends PartialType(
  OmitType(CreateProductVendorDto, ['vendor_account_id'] as const),
) {}

export class ProductVendorResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'product_vendor' }) object: string;
  @ApiProperty({ format: 'uuid' }) product_id: string;
  @ApiProperty({ format: 'uuid' }) vendor_account_id: string;
  @ApiProperty({ nullable: true, type: String }) vendor_sku: string | null;
  @ApiProperty({ nullable: true, type: Number }) unit_cost: number | null;
  @ApiProperty({ example: 'USD' }) currency: string;
  @ApiProperty() lead_time_days: number;
  @ApiProperty() min_order_quantity: number;
  @ApiProperty() order_multiple: number;
  @ApiProperty() is_preferred: boolean;
  @ApiProperty() livemode: boolean;
  @ApiProperty() created_at: string;
  @ApiProperty() updated_at: string;
}
