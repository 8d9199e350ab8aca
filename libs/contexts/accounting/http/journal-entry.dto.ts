import { ApiProperty, ApiPropertyOptional, OmitType, PartialType } from '@nestjs/swagger';
import {
  NullableText,
  NullableUuid,
  OptionalEnum,
  OptionalField,
  OptionalMoney,
  OptionalNonEmptyText,
  OptionalUuid,
  RequiredList,
  RequiredText,
  RequiredUuid,
} from '#platform/http/dto-fields';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { ResourceResponse } from '#platform/http/response-schema';
import { ENTRY_STATUSES } from '../domain/journal-entry';
import { SOURCE_TYPES } from '../domain/source-types';
import { IsCalendarDate } from './calendar-date.validator';
import { CrossFieldRules } from '#platform/http/cross-field-rules';

@CrossFieldRules({
  kind: 'one_positive',
  fields: ['debit_amount', 'credit_amount'],
  param: 'credit_amount',
  sentence:
    'A line is either a debit or a credit: exactly one of debit_amount and credit_amount is above zero.',
})
export class JournalLineDto {
  @RequiredUuid() account_id: string;
  @OptionalMoney(0, { example: 100.5, default: 0 }) debit_amount?: number;
  @OptionalMoney(0, { example: 0, default: 0 }) credit_amount?: number;
  @NullableText(1000) description?: string | null;
  @NullableUuid() location_id?: string | null;
  @NullableUuid() department_id?: string | null;
  @NullableUuid() class_id?: string | null;
  @NullableUuid() project_id?: string | null;
}

/** The lines of an entry or a template: 2 to 500, validated one by one. */
export const JournalLines = () => RequiredList(JournalLineDto, 2, 500);

export class CreateJournalEntryDto {
  @ApiProperty({ example: '2026-11-21' }) @IsCalendarDate() entry_date: string;
  @NullableText(1000, { example: 'Accrued rent' }) description?: string | null;
  @OptionalNonEmptyText(64, { example: 'manual', default: 'manual' }) entry_type?: string;
  @OptionalEnum(SOURCE_TYPES, { default: 'MANUAL' }) source_type?: string;
  @OptionalEnum(['draft', 'posted'], { default: 'posted', description: 'posted applies the approval rule.' })
  status?: 'draft' | 'posted';
  @JournalLines() lines: JournalLineDto[];
}

/** A draft's fields; `status` changes only through approval, posting and voiding. */
export class UpdateJournalEntryDto extends PartialType(OmitType(CreateJournalEntryDto, ['status'] as const)) {
  @ApiPropertyOptional({ type: [JournalLineDto], description: 'Replaces every line.' })
  override lines?: JournalLineDto[];
}

export class RejectJournalEntryDto {
  @RequiredText(1000, { example: 'Wrong cost centre' }) rejection_reason: string;
}

export class ReverseJournalEntryDto {
  @OptionalField({ example: '2026-12-01' }, IsCalendarDate()) entry_date?: string;
  @OptionalUuid() reverse_in_period_id?: string;
}

export class JournalEntryListQuery extends ListQueryDto {
  @OptionalUuid() batch_id?: string;
  @OptionalEnum(ENTRY_STATUSES) status?: string;
  @OptionalEnum(SOURCE_TYPES) source_type?: string;
  @OptionalUuid() period_id?: string;
}

@ResourceResponse('journal_line', { objectEnum: true, tail: ['created_at'] })
export class JournalLineResponse {
  @ApiProperty({ format: 'uuid' }) journal_entry_id: string;
  @ApiProperty({ example: 1 }) line_number: number;
  @ApiProperty({ format: 'uuid' }) account_id: string;
  @ApiProperty({ example: 100.5 }) debit_amount: number;
  @ApiProperty({ example: 0 }) credit_amount: number;
  @ApiProperty({ nullable: true, type: String }) description: string | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) location_id: string | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) department_id: string | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) class_id: string | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) project_id: string | null;
  @ApiProperty() reconciled: boolean;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) reconciled_at: string | null;
}

@ResourceResponse('journal_entry', { tail: [] })
export class JournalEntryResponse {
  @ApiProperty({ format: 'uuid' }) entity_id: string;
  @ApiProperty({ format: 'uuid' }) period_id: string;
  @ApiProperty({ example: 'QA1-JE-000001' }) entry_number: string;
  @ApiProperty({ example: '2026-11-21' }) entry_date: string;
  @ApiProperty({ example: 'manual' }) entry_type: string;
  @ApiProperty({ enum: ENTRY_STATUSES }) status: string;
  @ApiProperty({
    enum: ['auto_approved', 'pending_approval', 'approved', 'rejected'],
    nullable: true,
    type: String,
  })
  approval_status: string | null;
  @ApiProperty({ nullable: true, type: String }) description: string | null;
  @ApiProperty({ enum: SOURCE_TYPES }) source_type: string;
  @ApiProperty({ nullable: true, type: String }) source_id: string | null;
  @ApiProperty({ nullable: true, type: String }) source_module: string | null;
  @ApiProperty() is_reversing: boolean;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) reversed_by_id: string | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) reversal_of_id: string | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) reverse_in_period_id: string | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) batch_id: string | null;
  @ApiProperty({ example: 100.5 }) total_debit: number;
  @ApiProperty({ example: 100.5 }) total_credit: number;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) posted_at: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) approved_at: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) rejected_at: string | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) approved_by: string | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) rejected_by: string | null;
  @ApiProperty({ nullable: true, type: String }) rejection_reason: string | null;
  @ApiProperty({ nullable: true, type: String }) idempotency_key: string | null;
  @ApiProperty({
    format: 'uuid',
    nullable: true,
    type: String,
    description: 'The API key that created the entry.',
  })
  created_by: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'The API key name; null for system entries.' })
  created_by_name: string | null;
  @ApiProperty() livemode: boolean;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
  @ApiPropertyOptional({ type: [JournalLineResponse], description: 'On single retrieval only.' })
  lines?: JournalLineResponse[];
}
