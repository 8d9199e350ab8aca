import { ApiProperty, ApiPropertyOptional, OmitType, PartialType } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsISO8601,
  IsNotEmpty,
  Max,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  MaxLength,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { ListQueryDto, toBoolean } from '../../../platform/http/list/list-query.dto';
import { DATE_PATTERN } from '../domain/calendar';
import { ENTRY_STATUSES } from '../domain/journal-entry';
import { ACCOUNT_TYPES, CONTROL_ROLES, NORMAL_BALANCES } from '../domain/ledger';
import { SOURCE_TYPES } from '../domain/source-types';
import { IsMoneyAmount } from '../../../platform/http/money.validator';

/** A `YYYY-MM-DD` calendar date that exists. */
export const IsCalendarDate = () => (target: object, key: string) => {
  IsString()(target, key);
  Matches(DATE_PATTERN, { message: `${key} must be a YYYY-MM-DD date` })(target, key);
  IsISO8601({ strict: true }, { message: `${key} must be a valid date` })(target, key);
};

// Settings

export class UpdateSettingsDto {
  @ApiPropertyOptional({
    nullable: true,
    example: 10000,
    description: 'Manual entries whose total debit exceeds it wait for approval; null: never.',
  })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsMoneyAmount()
  @Min(0)
  approval_threshold?: number | null;

  @ApiPropertyOptional({ example: 'QA1-JE', pattern: '^[A-Za-z0-9_-]{1,20}$' })
  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z0-9_-]{1,20}$/)
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

// Ledger accounts

export class CreateLedgerAccountDto {
  @ApiProperty({ example: '1000' }) @IsString() @IsNotEmpty() @MaxLength(32) code: string;
  @ApiProperty({ example: 'Cash' }) @IsString() @IsNotEmpty() @MaxLength(200) name: string;
  @ApiProperty({ enum: ACCOUNT_TYPES }) @IsIn(ACCOUNT_TYPES) type: (typeof ACCOUNT_TYPES)[number];
  @ApiPropertyOptional({ enum: NORMAL_BALANCES, description: 'Derived from type when absent.' })
  @IsOptional()
  @IsIn(NORMAL_BALANCES)
  normal_balance?: (typeof NORMAL_BALANCES)[number];
  @ApiPropertyOptional({ default: true }) @IsOptional() @IsBoolean() postable?: boolean;
  @ApiPropertyOptional({ format: 'uuid', nullable: true })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsUUID()
  parent_id?: string | null;
  @ApiPropertyOptional({ enum: CONTROL_ROLES, nullable: true })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsIn(CONTROL_ROLES)
  control_role?: string | null;
  @ApiPropertyOptional({ nullable: true })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsString()
  @MaxLength(1000)
  description?: string | null;
  @ApiPropertyOptional({ default: true }) @IsOptional() @IsBoolean() active?: boolean;
  @ApiPropertyOptional({
    default: false,
    description: 'A bank account: bank transactions may be imported into it (asset accounts only).',
  })
  @IsOptional()
  @IsBoolean()
  is_bank?: boolean;
}

export class UpdateLedgerAccountDto extends PartialType(CreateLedgerAccountDto) {}

export class LedgerAccountListQuery extends ListQueryDto {
  @ApiPropertyOptional({ enum: ACCOUNT_TYPES }) @IsOptional() @IsIn(ACCOUNT_TYPES) type?: string;
  @ApiPropertyOptional({ enum: CONTROL_ROLES }) @IsOptional() @IsIn(CONTROL_ROLES) control_role?: string;
  @ApiPropertyOptional() @IsOptional() @Transform(toBoolean) @IsBoolean() postable?: boolean;
}

export class LedgerAccountResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'ledger_account' }) object: string;
  @ApiProperty({ example: '1000' }) code: string;
  @ApiProperty({ example: 'Cash' }) name: string;
  @ApiProperty({ enum: ACCOUNT_TYPES }) type: string;
  @ApiProperty({ enum: NORMAL_BALANCES }) normal_balance: string;
  @ApiProperty() postable: boolean;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) parent_id: string | null;
  @ApiProperty({ enum: CONTROL_ROLES, nullable: true, type: String }) control_role: string | null;
  @ApiProperty({ nullable: true, type: String }) description: string | null;
  @ApiProperty() active: boolean;
  @ApiProperty({ description: 'Bank transactions may be imported into it.' }) is_bank: boolean;
  @ApiProperty() livemode: boolean;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}

// Fiscal years and periods

export class CreateFiscalYearDto {
  @ApiProperty({ example: 'FY2026' }) @IsString() @IsNotEmpty() @MaxLength(100) name: string;
  @ApiProperty({ example: '2026-01-01' }) @IsCalendarDate() start_date: string;
  @ApiProperty({ example: '2026-12-31' }) @IsCalendarDate() end_date: string;
  @ApiPropertyOptional({ default: true, description: 'Creates one open period per calendar month.' })
  @IsOptional()
  @IsBoolean()
  monthly_periods?: boolean;
}

export class FiscalYearResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'fiscal_year' }) object: string;
  @ApiProperty({ example: 'FY2026' }) name: string;
  @ApiProperty({ example: '2026-01-01' }) start_date: string;
  @ApiProperty({ example: '2026-12-31' }) end_date: string;
  @ApiProperty({ enum: ['open', 'closed'] }) status: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) closed_at: string | null;
  @ApiProperty() livemode: boolean;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}

export class CreatePeriodDto {
  @ApiProperty({ example: '2026-11' }) @IsString() @IsNotEmpty() @MaxLength(100) name: string;
  @ApiProperty({ example: '2026-11-01' }) @IsCalendarDate() start_date: string;
  @ApiProperty({ example: '2026-11-30' }) @IsCalendarDate() end_date: string;
  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() @IsUUID() fiscal_year_id?: string;
}

export class PeriodListQuery extends ListQueryDto {
  @ApiPropertyOptional({ enum: ['open', 'closed'] }) @IsOptional() @IsIn(['open', 'closed']) status?: string;
  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() @IsUUID() fiscal_year_id?: string;
}

export class PeriodResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'accounting_period' }) object: string;
  @ApiProperty({ example: '2026-11' }) name: string;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) fiscal_year_id: string | null;
  @ApiProperty({ example: '2026-11-01' }) start_date: string;
  @ApiProperty({ example: '2026-11-30' }) end_date: string;
  @ApiProperty({ enum: ['open', 'closed'] }) status: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) closed_at: string | null;
  @ApiProperty() livemode: boolean;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}

// Journal entries

export class JournalLineDto {
  @ApiProperty({ format: 'uuid' }) @IsUUID() account_id: string;
  @ApiPropertyOptional({ example: 100.5, default: 0 })
  @IsOptional()
  @IsMoneyAmount()
  @Min(0)
  debit_amount?: number;
  @ApiPropertyOptional({ example: 0, default: 0 })
  @IsOptional()
  @IsMoneyAmount()
  @Min(0)
  credit_amount?: number;
  @ApiPropertyOptional({ nullable: true })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsString()
  @MaxLength(1000)
  description?: string | null;
  @ApiPropertyOptional({ format: 'uuid', nullable: true })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsUUID()
  location_id?: string | null;
  @ApiPropertyOptional({ format: 'uuid', nullable: true })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsUUID()
  department_id?: string | null;
  @ApiPropertyOptional({ format: 'uuid', nullable: true })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsUUID()
  class_id?: string | null;
  @ApiPropertyOptional({ format: 'uuid', nullable: true })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsUUID()
  project_id?: string | null;
}

export class CreateJournalEntryDto {
  @ApiProperty({ example: '2026-11-21' }) @IsCalendarDate() entry_date: string;
  @ApiPropertyOptional({ example: 'Accrued rent', nullable: true })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsString()
  @MaxLength(1000)
  description?: string | null;
  @ApiPropertyOptional({ example: 'manual', default: 'manual' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  entry_type?: string;
  @ApiPropertyOptional({ enum: SOURCE_TYPES, default: 'MANUAL' })
  @IsOptional()
  @IsIn(SOURCE_TYPES)
  source_type?: string;
  @ApiPropertyOptional({
    enum: ['draft', 'posted'],
    default: 'posted',
    description: 'posted applies the approval rule.',
  })
  @IsOptional()
  @IsIn(['draft', 'posted'])
  status?: 'draft' | 'posted';
  @ApiProperty({ type: [JournalLineDto] })
  @IsArray()
  @ArrayMinSize(2)
  @ArrayMaxSize(500)
  @ValidateNested({ each: true })
  @Type(() => JournalLineDto)
  lines: JournalLineDto[];
}

/** A draft's fields; `status` changes only through approval, posting and voiding. */
export class UpdateJournalEntryDto extends PartialType(OmitType(CreateJournalEntryDto, ['status'] as const)) {
  @ApiPropertyOptional({ type: [JournalLineDto], description: 'Replaces every line.' })
  override lines?: JournalLineDto[];
}

export class RejectJournalEntryDto {
  @ApiProperty({ example: 'Wrong cost centre' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(1000)
  rejection_reason: string;
}

export class ReverseJournalEntryDto {
  @ApiPropertyOptional({ example: '2026-12-01' }) @IsOptional() @IsCalendarDate() entry_date?: string;
  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() @IsUUID() reverse_in_period_id?: string;
}

export class JournalEntryListQuery extends ListQueryDto {
  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() @IsUUID() batch_id?: string;
  @ApiPropertyOptional({ enum: ENTRY_STATUSES }) @IsOptional() @IsIn(ENTRY_STATUSES) status?: string;
  @ApiPropertyOptional({ enum: SOURCE_TYPES }) @IsOptional() @IsIn(SOURCE_TYPES) source_type?: string;
  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() @IsUUID() period_id?: string;
}

export class JournalLineResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ enum: ['journal_line'], example: 'journal_line' }) object: string;
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
  @ApiProperty({ format: 'date-time' }) created_at: string;
}

export class JournalEntryResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'journal_entry' }) object: string;
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

// Recurring journal entries

const FREQUENCY_VALUES = ['daily', 'weekly', 'monthly', 'quarterly', 'yearly'] as const;

export class CreateRecurringJournalEntryDto {
  @ApiProperty({ example: 'Monthly rent' }) @IsString() @IsNotEmpty() @MaxLength(200) name: string;
  @ApiPropertyOptional({ nullable: true })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsString()
  @MaxLength(1000)
  description?: string | null;
  @ApiPropertyOptional({ default: 'recurring' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  entry_type?: string;
  @ApiProperty({ enum: FREQUENCY_VALUES })
  @IsIn(FREQUENCY_VALUES)
  frequency: (typeof FREQUENCY_VALUES)[number];
  @ApiProperty({ example: '2026-12-01' }) @IsCalendarDate() next_run_date: string;
  @ApiPropertyOptional({ example: '2027-12-01', nullable: true })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsCalendarDate()
  end_date?: string | null;
  @ApiPropertyOptional({ default: true }) @IsOptional() @IsBoolean() active?: boolean;
  @ApiProperty({ type: [JournalLineDto] })
  @IsArray()
  @ArrayMinSize(2)
  @ArrayMaxSize(500)
  @ValidateNested({ each: true })
  @Type(() => JournalLineDto)
  lines: JournalLineDto[];
}

export class UpdateRecurringJournalEntryDto extends PartialType(CreateRecurringJournalEntryDto) {}

export class RecurringListQuery extends ListQueryDto {
  @ApiPropertyOptional() @IsOptional() @Transform(toBoolean) @IsBoolean() active?: boolean;
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

export class RecurringJournalEntryResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'recurring_journal_entry' }) object: string;
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
  @ApiProperty() livemode: boolean;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}

// Fixed assets

export class CreateFixedAssetDto {
  @ApiProperty({ example: 'Delivery van' }) @IsString() @IsNotEmpty() @MaxLength(200) name: string;
  @ApiProperty({ example: 36000 }) @IsMoneyAmount() @Min(0.0001) cost: number;
  @ApiProperty({ example: '2026-01-01' }) @IsCalendarDate() acquisition_date: string;
  @ApiProperty({ example: 60 }) @IsInt() @Min(1) @Max(1200) useful_life_months: number;
  @ApiPropertyOptional({ example: 6000, default: 0 })
  @IsOptional()
  @IsMoneyAmount()
  @Min(0)
  salvage_value?: number;
  @ApiProperty({ format: 'uuid', description: 'The asset (cost) account.' })
  @IsUUID()
  asset_account_id: string;
  @ApiProperty({ format: 'uuid', description: 'Accumulated depreciation and impairment (contra-asset).' })
  @IsUUID()
  depreciation_account_id: string;
  @ApiProperty({ format: 'uuid', description: 'Depreciation, impairment and revaluation expense.' })
  @IsUUID()
  expense_account_id: string;
}

export class DepreciateDto {
  @ApiProperty({ example: '2026-06-30' }) @IsCalendarDate() through_date: string;
}

export class ImpairmentDto {
  @ApiProperty({ example: 2500 }) @IsMoneyAmount() @Min(0.0001) amount: number;
  @ApiPropertyOptional({ example: 'Damage' }) @IsOptional() @IsString() @MaxLength(1000) reason?: string;
  @ApiPropertyOptional({ example: 20000 }) @IsOptional() @IsMoneyAmount() @Min(0) fair_value?: number;
  @ApiPropertyOptional({ example: '2026-06-30', description: 'Default: the current business day.' })
  @IsOptional()
  @IsCalendarDate()
  event_date?: string;
}

export class RevaluationDto {
  @ApiProperty({ example: 21000 }) @IsMoneyAmount() @Min(0) fair_value: number;
  @ApiPropertyOptional({ example: 'Appraisal' }) @IsOptional() @IsString() @MaxLength(1000) reason?: string;
  @ApiPropertyOptional({ example: '2026-06-30' }) @IsOptional() @IsCalendarDate() event_date?: string;
}

export class FixedAssetResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'fixed_asset' }) object: string;
  @ApiProperty({ example: 'Delivery van' }) name: string;
  @ApiProperty({ example: 36000 }) cost: number;
  @ApiProperty({ example: '2026-01-01' }) acquisition_date: string;
  @ApiProperty({ example: 60 }) useful_life_months: number;
  @ApiProperty({ example: 6000 }) salvage_value: number;
  @ApiProperty({ example: 'straight_line' }) depreciation_method: string;
  @ApiProperty({ format: 'uuid' }) asset_account_id: string;
  @ApiProperty({ format: 'uuid' }) depreciation_account_id: string;
  @ApiProperty({ format: 'uuid' }) expense_account_id: string;
  @ApiProperty({ example: 3000 }) accumulated_depreciation: number;
  @ApiProperty({ example: 6 }) months_depreciated: number;
  @ApiProperty({ nullable: true, type: String }) depreciated_through: string | null;
  @ApiProperty({ example: 2500 }) total_impaired: number;
  @ApiProperty({ example: 1000 }) total_recovered: number;
  @ApiProperty({ example: 0 }) revaluation_total: number;
  @ApiProperty({ example: 1500 }) max_recoverable: number;
  @ApiProperty({ example: 31500 }) net_book_value: number;
  @ApiProperty() livemode: boolean;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}

export class AssetEventResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ enum: ['fixed_asset_event'], example: 'fixed_asset_event' }) object: string;
  @ApiProperty({ format: 'uuid' }) fixed_asset_id: string;
  @ApiProperty({ enum: ['impairment', 'recovery', 'revaluation'] }) event_type: string;
  @ApiProperty({ example: '2026-06-30' }) event_date: string;
  @ApiProperty({ example: 2500 }) amount: number;
  @ApiProperty({ example: 33000 }) previous_net_book_value: number;
  @ApiProperty({ example: 30500 }) new_net_book_value: number;
  @ApiProperty({ nullable: true, type: Number }) fair_value_at_event: number | null;
  @ApiProperty({ nullable: true, type: String }) reason: string | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) journal_entry_id: string | null;
  @ApiProperty({ nullable: true, type: String }) created_by_name: string | null;
  @ApiProperty({ format: 'date-time' }) created_at: string;
}

export class ImpairmentSummaryResponse {
  @ApiProperty({ example: 2500 }) total_impaired: number;
  @ApiProperty({ example: 1000 }) total_recovered: number;
  @ApiProperty({ example: 1500 }) net_impaired: number;
  @ApiProperty({ example: 1500 }) max_recoverable: number;
}

export class ImpairmentHistoryResponse {
  @ApiProperty({ enum: ['impairment_history'], example: 'impairment_history' }) object: string;
  @ApiProperty({ format: 'uuid' }) fixed_asset_id: string;
  @ApiProperty({ type: [AssetEventResponse] }) data: AssetEventResponse[];
  @ApiProperty({ example: 2 }) total: number;
  @ApiProperty({ type: ImpairmentSummaryResponse }) summary: ImpairmentSummaryResponse;
}
