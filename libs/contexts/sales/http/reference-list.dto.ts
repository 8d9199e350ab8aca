import { ApiProperty, PartialType } from '@nestjs/swagger';
import { IsInt, Max, Min } from 'class-validator';
import { OmittableField } from './validation';
import { IsMoneyAmount } from '#platform/http/money.validator';
import { RequiredEnum } from '#platform/http/dto-fields';
import { ReferenceFieldsDto, ReferenceResponseBase } from '#platform/reference-lists/reference-list.dto';
import { CrossFieldRules } from '#platform/http/cross-field-rules';

/** The discount holds within the payment term (the stored net_days on an update). */
const DISCOUNT_WITHIN_NET = CrossFieldRules({
  kind: 'compare',
  field: 'discount_days',
  op: '<=',
  than: 'net_days',
  param: 'discount_days',
  sentence: 'discount_days cannot exceed net_days.',
});

/** A discount holds for some days (the stored days or percent on an update). */
const discountHasDays = (stored: boolean) =>
  CrossFieldRules({
    kind: 'when',
    field: 'discount_percent',
    is: { above: 0 },
    requires: stored ? [] : ['discount_days'],
    minimum: { discount_days: 1 },
    ...(stored ? { stored } : {}),
    param: 'discount_days',
    sentence: stored
      ? 'A discount_percent above 0 needs discount_days above 0 (the stored value counts when not sent).'
      : 'A discount_percent above 0 needs discount_days above 0.',
  });

@DISCOUNT_WITHIN_NET
@discountHasDays(false)
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
@DISCOUNT_WITHIN_NET
@discountHasDays(true)
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
