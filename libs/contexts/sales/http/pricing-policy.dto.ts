import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsISO8601,
  IsNotEmpty,
  IsObject,
  IsString,
  IsUUID,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { ListQueryDto } from '../../../platform/http/list/list-query.dto';
import { PRICING_POLICY_KINDS } from '../domain/pricing';
import { Optional, OptionalNullable } from './validation';
import { IsMoneyAmount } from '../../../platform/http/money.validator';

const toBoolean = ({ value }: { value: unknown }) =>
  value === 'true' ? true : value === 'false' ? false : value;

export class CreatePricingPolicyDto {
  @ApiProperty({ example: 'Wholesale 10% off' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name: string;

  @ApiProperty({ enum: PRICING_POLICY_KINDS })
  @IsIn(PRICING_POLICY_KINDS)
  kind: (typeof PRICING_POLICY_KINDS)[number];

  @ApiProperty({
    example: 10,
    minimum: 0,
    description: 'Percent (≤ 100) for percentage_off; an amount in the order currency otherwise.',
  })
  @IsMoneyAmount()
  @Min(0)
  value: number;

  @ApiPropertyOptional({
    nullable: true,
    format: 'uuid',
    description: 'Only this account (expandable: account).',
  })
  @OptionalNullable()
  @IsUUID()
  account_id?: string | null;

  @ApiPropertyOptional({ nullable: true, format: 'uuid', description: 'Only this product.' })
  @OptionalNullable()
  @IsUUID()
  product_id?: string | null;

  @ApiPropertyOptional({ nullable: true, format: 'uuid', description: 'Only products of this category.' })
  @OptionalNullable()
  @IsUUID()
  product_category_id?: string | null;

  @ApiPropertyOptional({ default: 0, description: 'Higher wins; policies never stack.' })
  @Optional()
  @IsInt()
  @Min(-1000000)
  @Max(1000000)
  priority?: number;

  @ApiPropertyOptional({ default: true })
  @Optional()
  @IsBoolean()
  active?: boolean;

  @ApiPropertyOptional({ nullable: true, format: 'date-time' })
  @OptionalNullable()
  @IsISO8601({ strict: true })
  starts_at?: string | null;

  @ApiPropertyOptional({ nullable: true, format: 'date-time', description: 'Exclusive; after starts_at.' })
  @OptionalNullable()
  @IsISO8601({ strict: true })
  ends_at?: string | null;

  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string' } })
  @Optional()
  @IsObject()
  metadata?: Record<string, unknown>;
}

export class UpdatePricingPolicyDto extends PartialType(CreatePricingPolicyDto) {}

export class PricingPolicyListQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ format: 'uuid' })
  @Optional()
  @IsUUID()
  account_id?: string;

  @ApiPropertyOptional({ format: 'uuid' })
  @Optional()
  @IsUUID()
  product_id?: string;

  @ApiPropertyOptional()
  @Optional()
  @Transform(toBoolean)
  @IsBoolean()
  active?: boolean;
}

export class PricingPolicyResponse extends CreatePricingPolicyDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'pricing_policy' }) object: string;
  @ApiProperty() livemode: boolean;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}
