import { ApiProperty, PartialType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsString, Matches, Max, Min, ValidateNested } from 'class-validator';
import { PostalAddressDto } from './address.dto';
import { ClearableField, OmittableField } from './validation';
import { IsMoneyAmount } from '#platform/http/money.validator';
import { RequiredEnum, RequiredText } from '#platform/http/dto-fields';

export const REFERENCE_CODE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,49}$/;

/** Fields every reference list has. */
class ReferenceFieldsDto {
  @RequiredText(200, { example: 'Main warehouse', maxLength: 200 }) name: string;

  @ApiProperty({
    example: 'MAIN',
    description: 'Unique per entity and mode; letters, digits, `_`, `.`, `-` (1..50).',
  })
  @IsString()
  @Matches(REFERENCE_CODE_PATTERN, { message: 'code must be 1..50 letters, digits, _ . -' })
  code: string;
}

class ReferenceResponseBase {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty() code: string;
  @ApiProperty() livemode: boolean;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}

export const LOCATION_TYPES = ['warehouse', 'store', 'virtual'] as const;
export class CreateLocationDto extends ReferenceFieldsDto {
  @RequiredEnum(LOCATION_TYPES, { example: 'warehouse' }) type: string;

  @ClearableField({ type: PostalAddressDto }, ValidateNested(), Type(() => PostalAddressDto))
  address?: PostalAddressDto | null;
}
export class UpdateLocationDto extends PartialType(CreateLocationDto) {}
export class LocationResponse extends ReferenceResponseBase {
  @ApiProperty({ example: 'location' }) object: string;
  @ApiProperty({ enum: LOCATION_TYPES }) type: string;
  @ApiProperty({ type: PostalAddressDto, nullable: true }) address: PostalAddressDto | null;
}

export class CreatePaymentTermDto extends ReferenceFieldsDto {
  @ApiProperty({
    example: 30,
    minimum: 0,
    maximum: 3650,
    description: 'Days after the invoice date when payment is due.',
  })
  @IsInt()
  @Min(0)
  @Max(3650)
  net_days: number;

  @OmittableField(
    {
      example: 2,
      minimum: 0,
      maximum: 100,
      default: 0,
      description: 'Early-payment discount, percent (up to 4 decimals).',
    },
    IsMoneyAmount(),
    Min(0),
    Max(100),
  )
  discount_percent?: number;

  @OmittableField(
    {
      example: 10,
      minimum: 0,
      default: 0,
      description: 'Days within which the discount holds; at most net_days.',
    },
    IsInt(),
    Min(0),
    Max(3650),
  )
  discount_days?: number;
}
export class UpdatePaymentTermDto extends PartialType(CreatePaymentTermDto) {}
export class PaymentTermResponse extends ReferenceResponseBase {
  @ApiProperty({ example: 'payment_term' }) object: string;
  @ApiProperty({ example: 30 }) net_days: number;
  @ApiProperty({ example: 2 }) discount_percent: number;
  @ApiProperty({ example: 10 }) discount_days: number;
}

export class CreateUnitOfMeasureDto extends ReferenceFieldsDto {
  @OmittableField(
    {
      example: 2,
      minimum: 0,
      maximum: 4,
      default: 0,
      description: 'Decimal places a quantity in this unit may have.',
    },
    IsInt(),
    Min(0),
    Max(4),
  )
  precision?: number;
}
export class UpdateUnitOfMeasureDto extends PartialType(CreateUnitOfMeasureDto) {}
export class UnitOfMeasureResponse extends ReferenceResponseBase {
  @ApiProperty({ example: 'unit_of_measure' }) object: string;
  @ApiProperty({ example: 2 }) precision: number;
}

export const SALES_CHANNEL_KINDS = ['storefront', 'marketplace1', 'marketplace2', 'pos', 'other'] as const;
export class CreateSalesChannelDto extends ReferenceFieldsDto {
  @RequiredEnum(SALES_CHANNEL_KINDS, { example: 'storefront' }) kind: string;
}
export class UpdateSalesChannelDto extends PartialType(CreateSalesChannelDto) {}
export class SalesChannelResponse extends ReferenceResponseBase {
  @ApiProperty({ example: 'sales_channel' }) object: string;
  @ApiProperty({ enum: SALES_CHANNEL_KINDS }) kind: string;
}

export class CreatePricingLevelDto extends ReferenceFieldsDto {
  @ApiProperty({
    example: -10,
    minimum: -100,
    maximum: 1000,
    description: 'Percent added to list prices (negative for a discount).',
  })
  @IsMoneyAmount()
  @Min(-100)
  @Max(1000)
  percent_adjustment: number;
}
export class UpdatePricingLevelDto extends PartialType(CreatePricingLevelDto) {}
export class PricingLevelResponse extends ReferenceResponseBase {
  @ApiProperty({ example: 'pricing_level' }) object: string;
  @ApiProperty({ example: -10 }) percent_adjustment: number;
}
