import { requestMetadataSchema } from '#platform/http/metadata-doc';
import { ApiProperty, PartialType } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsInt, IsObject, Max, Min } from 'class-validator';
import { IsId } from '#platform/http/id.validator';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { PRICING_POLICY_KINDS } from '../domain/pricing';
import { OmittableField, toBoolean } from './validation';
import {
  ClearableField,
  IsDateTime,
  RequiredEnum,
  RequiredMoney,
  RequiredText,
} from '#platform/http/dto-fields';
import { CrossFieldRules } from '#platform/http/cross-field-rules';

/** A policy ends after it starts (the stored bound on an update). */
const ENDS_AFTER_START = CrossFieldRules({
  kind: 'compare',
  field: 'ends_at',
  op: '>',
  than: 'starts_at',
  param: 'ends_at',
  sentence: 'ends_at must be after starts_at.',
});

/** A percentage_off policy takes at most 100 percent (the stored kind or value on an update). */
const percentCap = (stored: boolean) =>
  CrossFieldRules({
    kind: 'when',
    field: 'kind',
    is: ['percentage_off'],
    maximum: { value: 100 },
    ...(stored ? { stored } : {}),
    param: 'value',
    sentence: stored
      ? 'A percentage_off value is at most 100 (the stored kind or value counts when not sent).'
      : 'A percentage_off value is at most 100.',
  });

@ENDS_AFTER_START
@percentCap(false)
export class CreatePricingPolicyDto {
  @RequiredText(200, { example: 'Wholesale 10% off' }) name: string;

  @RequiredEnum(PRICING_POLICY_KINDS) kind: (typeof PRICING_POLICY_KINDS)[number];

  @RequiredMoney(0, {
    example: 10,
    minimum: 0,
    description: 'Percent (≤ 100) for percentage_off; an amount in the order currency otherwise.',
  })
  value: number;

  @ClearableField({ format: 'uuid', description: 'Only this account (expandable: account).' }, IsId())
  account_id?: string | null;

  @ClearableField({ format: 'uuid', description: 'Only this product.' }, IsId()) product_id?: string | null;

  @ClearableField({ format: 'uuid', description: 'Only products of this category.' }, IsId())
  product_category_id?: string | null;

  @OmittableField(
    { default: 0, description: 'Higher wins; policies never stack.' },
    IsInt(),
    Min(-1000000),
    Max(1000000),
  )
  priority?: number;

  @OmittableField({ default: true }, IsBoolean()) active?: boolean;

  @ClearableField({ format: 'date-time' }, IsDateTime()) starts_at?: string | null;

  @ClearableField({ format: 'date-time', description: 'Exclusive; after starts_at.' }, IsDateTime())
  ends_at?: string | null;

  @OmittableField(requestMetadataSchema(), IsObject()) metadata?: Record<string, unknown>;
}

@ENDS_AFTER_START
@percentCap(true)
export class UpdatePricingPolicyDto extends PartialType(CreatePricingPolicyDto) {}

export class PricingPolicyListQueryDto extends ListQueryDto {
  @OmittableField({ format: 'uuid' }, IsId()) account_id?: string;

  @OmittableField({ format: 'uuid' }, IsId()) product_id?: string;

  @OmittableField({}, Transform(toBoolean), IsBoolean()) active?: boolean;
}

export class PricingPolicyResponse extends CreatePricingPolicyDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'pricing_policy' }) object: string;
  @ApiProperty() livemode: boolean;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}
