import { ApiProperty } from '@nestjs/swagger';
import { IsString, Matches } from 'class-validator';
import { NullableMoney, OptionalField } from '#platform/http/dto-fields';

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
}

export class SettingsResponse {
  @ApiProperty({ example: 'accounting_settings' }) object: string;
  @ApiProperty({ format: 'uuid' }) entity_id: string;
  @ApiProperty() livemode: boolean;
  @ApiProperty({ example: 'Europe/Berlin' }) timezone: string;
  @ApiProperty({ example: '2026-11-21' }) current_business_day: string;
  @ApiProperty({ nullable: true, type: Number, example: 10000 }) approval_threshold: number | null;
  @ApiProperty({ example: 'QA1-JE' }) entry_number_prefix: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}
