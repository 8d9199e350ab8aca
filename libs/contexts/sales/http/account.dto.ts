import { ApiProperty, PartialType } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsEmail, IsString } from 'class-validator';
import { MaxChars } from '#platform/http/text-length';
import { IsId } from '#platform/http/id.validator';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import {
  CurrencyField,
  IsAmount,
  MetadataField,
  MetadataProperty,
  OmittableField,
  toBoolean,
} from './validation';
import { ClearableField, RequiredText, RequiredUuid } from '#platform/http/dto-fields';
import { ResourceResponse } from '#platform/http/response-schema';

export class CreateAccountDto {
  @RequiredText(200, { example: 'Acme Corp', maxLength: 200 }) name: string;

  @ClearableField(
    { example: 'billing@acme.example', description: 'Stored lower-case.' },
    IsEmail(),
    MaxChars(254),
  )
  email?: string | null;

  @ClearableField({ example: '+1 415 555 0100' }, IsString(), MaxChars(40)) phone?: string | null;

  @CurrencyField('ISO 4217, stored upper-case; default: the entity base currency.')
  currency?: string;

  @ClearableField({ example: 5000, minimum: 0, description: 'null: no limit. Up to 4 decimals.' }, IsAmount())
  credit_limit?: number | null;

  @ClearableField({ format: 'uuid', description: 'A payment term of this entity and mode.' }, IsId())
  payment_terms_id?: string | null;

  @ClearableField({ example: 'DE123456789' }, IsString(), MaxChars(64)) tax_id?: string | null;

  @MetadataField({ erp_ref: 'C-1001' }) metadata?: Record<string, unknown>;
}

export class UpdateAccountDto extends PartialType(CreateAccountDto) {}

export class AccountListQueryDto extends ListQueryDto {
  @OmittableField(
    { description: 'Include soft-deleted (and merged) accounts.' },
    Transform(toBoolean),
    IsBoolean(),
  )
  include_deleted?: boolean;

  @OmittableField({ description: 'Exact e-mail match, case-insensitive.' }, IsString()) email?: string;
}

export class AccountTagDto {
  @RequiredUuid({ description: 'A tag of this entity and mode.' }) tag_id: string;
}

export class MergeAccountDto {
  @RequiredUuid({ description: 'The account merged into this one; it ends deleted with merged_into_id.' })
  source_account_id: string;
}

@ResourceResponse('account')
export class AccountResponse {
  @ApiProperty({ example: 'Acme Corp' }) name: string;
  @ApiProperty({ nullable: true, type: String }) email: string | null;
  @ApiProperty({ nullable: true, type: String }) phone: string | null;
  @ApiProperty({ example: 'USD' }) currency: string;
  @ApiProperty({ nullable: true, type: Number, example: 5000 }) credit_limit: number | null;
  @ApiProperty({
    example: 25,
    description:
      'Customer credit the account holds (returns refunded to credit, unapplied bank deposits), spendable on its invoices with a customer_credit payment; its movements are GET /accounts/{id}/credit-transactions. Read-only.',
  })
  credit_balance: number;
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
  @MetadataProperty() metadata: Record<string, string>;
}
