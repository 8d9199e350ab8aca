import { ApiProperty } from '@nestjs/swagger';
import { IsInt, IsString, Matches, Max, Min } from 'class-validator';
import { NullableMoney, OptionalEnum, OptionalField } from '#platform/http/dto-fields';
import { CrossFieldRules } from '#platform/http/cross-field-rules';
import { LATE_FEE_FREQUENCIES, LATE_FEE_TYPES } from '../application/accounting-settings.service';

@CrossFieldRules(
  {
    kind: 'when',
    field: 'late_fee_type',
    is: LATE_FEE_TYPES.filter((type) => type !== 'none'),
    requires: ['late_fee_amount'],
    stored: true,
    param: 'late_fee_amount',
    sentence:
      "A late_fee_type other than 'none' needs a late_fee_amount (sent, or the stored one when not sent).",
  },
  {
    kind: 'when',
    field: 'late_fee_type',
    is: ['percent'],
    maximum: { late_fee_amount: 100 },
    stored: true,
    param: 'late_fee_amount',
    sentence:
      'A percent late fee is at most 100 (percent of the amount due; the stored type or amount counts when not sent).',
  },
)
export class UpdateSettingsDto {
  @NullableMoney(0, {
    example: 10000,
    description: 'Manual entries whose total debit exceeds it wait for approval; null: never.',
  })
  approval_threshold?: number | null;

  @OptionalField(
    { example: 'QA1-JE', pattern: '^[A-Za-z0-9_-]{1,20}$' },
    IsString(),
    Matches(/^[A-Za-z0-9_-]{1,20}$/),
  )
  entry_number_prefix?: string;

  @OptionalEnum(LATE_FEE_TYPES, {
    description:
      'Late fee of an overdue invoice: none, a flat amount (late_fee_amount in the invoice currency) or a percent of the amount due (late_fee_amount percent).',
  })
  late_fee_type?: (typeof LATE_FEE_TYPES)[number];

  @NullableMoney(0, {
    example: 25,
    description: 'The flat amount, or the percent (0..100) of the amount due.',
  })
  late_fee_amount?: number | null;

  @NullableMoney(0, { example: 5, description: 'The smallest fee charged; null: no minimum.' })
  late_fee_minimum?: number | null;

  @OptionalField(
    { type: 'integer', example: 5, description: 'Days after the due date before a fee is charged.' },
    IsInt(),
    Min(0),
    Max(365),
  )
  late_fee_grace_days?: number;

  @OptionalEnum(LATE_FEE_FREQUENCIES, {
    description:
      'per_invoice: at most one fee per invoice; per_period: at most one fee per late_fee_period_days while the invoice stays overdue.',
  })
  late_fee_frequency?: (typeof LATE_FEE_FREQUENCIES)[number];

  @OptionalField({ type: 'integer', example: 30 }, IsInt(), Min(1), Max(366))
  late_fee_period_days?: number;
}

export class SettingsResponse {
  @ApiProperty({ example: 'accounting_settings' }) object: string;
  @ApiProperty({ format: 'uuid' }) entity_id: string;
  @ApiProperty() livemode: boolean;
  @ApiProperty({ example: 'Europe/Berlin' }) timezone: string;
  @ApiProperty({ example: '2026-11-21' }) current_business_day: string;
  @ApiProperty({ nullable: true, type: Number, example: 10000 }) approval_threshold: number | null;
  @ApiProperty({ example: 'QA1-JE' }) entry_number_prefix: string;
  @ApiProperty({ enum: LATE_FEE_TYPES }) late_fee_type: string;
  @ApiProperty({ nullable: true, type: Number, example: 25 }) late_fee_amount: number | null;
  @ApiProperty({ nullable: true, type: Number, example: 5 }) late_fee_minimum: number | null;
  @ApiProperty({ type: 'integer' }) late_fee_grace_days: number;
  @ApiProperty({ enum: LATE_FEE_FREQUENCIES }) late_fee_frequency: string;
  @ApiProperty({ type: 'integer' }) late_fee_period_days: number;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}
