import { PostalAddressDto } from './address.dto';
import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  IsBoolean,
  IsEmail,
  IsIn,
  IsNotEmpty,
  IsObject,
  IsString,
  IsUUID,
  Matches,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { ListQueryDto } from '../../../platform/http/list/list-query.dto';
import { CURRENCY_PATTERN } from '../domain/account';
import { Optional, OptionalNullable } from './validation';
import { IsMoneyAmount } from '../../../platform/http/money.validator';

const MAX_AMOUNT = 999_999_999_999_999;
const toBoolean = ({ value }: { value: unknown }) =>
  value === 'true' ? true : value === 'false' ? false : value;

export class CreateAccountDto {
  @ApiProperty({ example: 'Acme Corp', maxLength: 200 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name: string;

  @ApiPropertyOptional({ nullable: true, example: 'billing@acme.example', description: 'Stored lower-case.' })
  @OptionalNullable()
  @IsEmail()
  @MaxLength(254)
  email?: string | null;

  @ApiPropertyOptional({ nullable: true, example: '+1 415 555 0100' })
  @OptionalNullable()
  @IsString()
  @MaxLength(40)
  phone?: string | null;

  @ApiPropertyOptional({
    example: 'USD',
    description: 'ISO 4217, stored upper-case; default: the entity base currency.',
  })
  @Optional()
  @IsString()
  @Matches(CURRENCY_PATTERN, { message: 'currency must be an ISO 4217 code' })
  currency?: string;

  @ApiPropertyOptional({
    nullable: true,
    example: 5000,
    minimum: 0,
    description: 'null: no limit. Up to 4 decimals.',
  })
  @OptionalNullable()
  @IsMoneyAmount()
  @Min(0)
  @Max(MAX_AMOUNT)
  credit_limit?: number | null;

  @ApiPropertyOptional({
    nullable: true,
    format: 'uuid',
    description: 'A payment term of this entity and mode.',
  })
  @OptionalNullable()
  @IsUUID()
  payment_terms_id?: string | null;

  @ApiPropertyOptional({ nullable: true, example: 'DE123456789' })
  @OptionalNullable()
  @IsString()
  @MaxLength(64)
  tax_id?: string | null;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string' },
    example: { erp_ref: 'C-1001' },
  })
  @Optional()
  @IsObject()
  metadata?: Record<string, unknown>;
}

export class UpdateAccountDto extends PartialType(CreateAccountDto) {}

export class AccountListQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ description: 'Include soft-deleted (and merged) accounts.' })
  @Optional()
  @Transform(toBoolean)
  @IsBoolean()
  include_deleted?: boolean;

  @ApiPropertyOptional({ description: 'Exact e-mail match, case-insensitive.' })
  @Optional()
  @IsString()
  email?: string;
}

export class AccountTagDto {
  @ApiProperty({ format: 'uuid', description: 'A tag of this entity and mode.' })
  @IsUUID()
  tag_id: string;
}

export class MergeAccountDto {
  @ApiProperty({
    format: 'uuid',
    description: 'The account merged into this one; it ends deleted with merged_into_id.',
  })
  @IsUUID()
  source_account_id: string;
}

export class AccountResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'account' }) object: string;
  @ApiProperty({ example: 'Acme Corp' }) name: string;
  @ApiProperty({ nullable: true, type: String }) email: string | null;
  @ApiProperty({ nullable: true, type: String }) phone: string | null;
  @ApiProperty({ example: 'USD' }) currency: string;
  @ApiProperty({ nullable: true, type: Number, example: 5000 }) credit_limit: number | null;
  @ApiProperty({ nullable: true, type: String, format: 'uuid', description: 'Expandable: payment_terms.' })
  payment_terms_id: string | null;
  @ApiProperty({ nullable: true, type: String }) tax_id: string | null;
  @ApiProperty({ enum: ['active', 'deleted'] }) status: string;
  @ApiProperty({ description: 'true once soft-deleted or merged.' }) deleted: boolean;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) deleted_at: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'uuid' }) merged_into_id: string | null;
  @ApiProperty({
    type: [String],
    description: 'Tags attached with POST /accounts/{id}/tags, in attachment order.',
  })
  tag_ids: string[];
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } }) metadata: Record<string, string>;
  @ApiProperty() livemode: boolean;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}

export const ADDRESS_TYPES = ['billing', 'shipping'] as const;

/** An account address: a postal address with its type and whether it is the default of that type. */
export class CreateAddressDto extends PostalAddressDto {
  @ApiProperty({ enum: ADDRESS_TYPES })
  @IsIn(ADDRESS_TYPES)
  type: string;

  @ApiPropertyOptional({
    description: 'Default address of its type; the first address of a type is the default automatically.',
  })
  @Optional()
  @IsBoolean()
  is_default?: boolean;
}

export class UpdateAddressDto extends PartialType(CreateAddressDto) {}

export class AddressResponse extends CreateAddressDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'account_address' }) object: string;
  @ApiProperty({ format: 'uuid' }) account_id: string;
  @ApiProperty() declare is_default: boolean;
  @ApiProperty() livemode: boolean;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}

export class CreateContactDto {
  @ApiProperty({ example: 'Jane Doe' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name: string;

  @ApiPropertyOptional({ nullable: true, example: 'jane@acme.example' })
  @OptionalNullable()
  @IsEmail()
  @MaxLength(254)
  email?: string | null;

  @ApiPropertyOptional({ nullable: true })
  @OptionalNullable()
  @IsString()
  @MaxLength(40)
  phone?: string | null;

  @ApiPropertyOptional({ nullable: true, example: 'accounts payable' })
  @OptionalNullable()
  @IsString()
  @MaxLength(100)
  role?: string | null;

  @ApiPropertyOptional({ description: 'Primary contact; the first contact is primary automatically.' })
  @Optional()
  @IsBoolean()
  is_primary?: boolean;
}

export class UpdateContactDto extends PartialType(CreateContactDto) {}

export class ContactResponse extends CreateContactDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'account_contact' }) object: string;
  @ApiProperty({ format: 'uuid' }) account_id: string;
  @ApiProperty() declare is_primary: boolean;
  @ApiProperty() livemode: boolean;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}
