import { ApiProperty, PartialType } from '@nestjs/swagger';
import {
  BooleanFilter,
  NullableField,
  NullableText,
  OptionalBoolean,
  OptionalNonEmptyText,
  RequiredEnum,
  RequiredText,
} from '#platform/http/dto-fields';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { ResourceResponse } from '#platform/http/response-schema';
import { IsCalendarDate } from './calendar-date.validator';
import { JournalLineDto, JournalLines } from './journal-entry.dto';
import { CrossFieldRules } from '#platform/http/cross-field-rules';

const FREQUENCY_VALUES = ['daily', 'weekly', 'monthly', 'quarterly', 'yearly'] as const;

/** An end date, when there is one, is not before the next run (the stored one on an update). */
const END_AFTER_NEXT_RUN = CrossFieldRules({
  kind: 'compare',
  field: 'end_date',
  op: '>=',
  than: 'next_run_date',
  param: 'end_date',
  sentence: 'end_date must not be before next_run_date.',
});

@END_AFTER_NEXT_RUN
export class CreateRecurringJournalEntryDto {
  @RequiredText(200, { example: 'Monthly rent' }) name: string;
  @NullableText(1000) description?: string | null;
  @OptionalNonEmptyText(64, { default: 'recurring' }) entry_type?: string;
  @RequiredEnum(FREQUENCY_VALUES) frequency: (typeof FREQUENCY_VALUES)[number];
  @ApiProperty({ example: '2026-12-01' }) @IsCalendarDate() next_run_date: string;
  @NullableField({ example: '2027-12-01', nullable: true }, IsCalendarDate()) end_date?: string | null;
  @OptionalBoolean({ default: true }) active?: boolean;
  @JournalLines() lines: JournalLineDto[];
}

@END_AFTER_NEXT_RUN
export class UpdateRecurringJournalEntryDto extends PartialType(CreateRecurringJournalEntryDto) {}

export class RecurringListQuery extends ListQueryDto {
  @BooleanFilter() active?: boolean;
}

export class RecurringTemplateLineResponse {
  @ApiProperty({ example: 1 }) line_number: number;
  @ApiProperty({ format: 'uuid' }) account_id: string;
  @ApiProperty({ example: 1500 }) debit_amount: number;
  @ApiProperty({ example: 0 }) credit_amount: number;
  @ApiProperty({ nullable: true, type: String }) description: string | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) location_id: string | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) department_id: string | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) class_id: string | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) project_id: string | null;
}

@ResourceResponse('recurring_journal_entry')
export class RecurringJournalEntryResponse {
  @ApiProperty({ example: 'Monthly rent' }) name: string;
  @ApiProperty({ nullable: true, type: String }) description: string | null;
  @ApiProperty({ example: 'recurring' }) entry_type: string;
  @ApiProperty({ enum: FREQUENCY_VALUES }) frequency: string;
  @ApiProperty({ example: '2026-12-01' }) next_run_date: string;
  @ApiProperty({ nullable: true, type: String }) end_date: string | null;
  @ApiProperty() active: boolean;
  @ApiProperty({ type: [RecurringTemplateLineResponse] }) lines: RecurringTemplateLineResponse[];
  @ApiProperty({ nullable: true, type: String }) last_run_date: string | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) last_journal_entry_id: string | null;
}
