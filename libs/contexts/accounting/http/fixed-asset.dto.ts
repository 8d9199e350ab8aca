import { ApiProperty } from '@nestjs/swagger';
import { IsInt, Max, Min } from 'class-validator';
import {
  OptionalField,
  OptionalMoney,
  OptionalText,
  RequiredMoney,
  RequiredText,
  RequiredUuid,
} from '#platform/http/dto-fields';
import { ResourceResponse } from '#platform/http/response-schema';
import { IsCalendarDate } from './calendar-date.validator';
import { CrossFieldRules } from '#platform/http/cross-field-rules';

const POSITIVE = 0.0001;

@CrossFieldRules({
  kind: 'compare',
  field: 'salvage_value',
  op: '<',
  than: 'cost',
  param: 'salvage_value',
  sentence: 'salvage_value must be below cost.',
})
export class CreateFixedAssetDto {
  @RequiredText(200, { example: 'Delivery van' }) name: string;
  @RequiredMoney(POSITIVE, { example: 36000 }) cost: number;
  @ApiProperty({ example: '2026-01-01' }) @IsCalendarDate() acquisition_date: string;
  @ApiProperty({ example: 60 }) @IsInt() @Min(1) @Max(1200) useful_life_months: number;
  @OptionalMoney(0, { example: 6000, default: 0 }) salvage_value?: number;
  @RequiredUuid({ description: 'The asset (cost) account.' }) asset_account_id: string;
  @RequiredUuid({ description: 'Accumulated depreciation and impairment (contra-asset).' })
  depreciation_account_id: string;
  @RequiredUuid({ description: 'Depreciation, impairment and revaluation expense.' })
  expense_account_id: string;
}

export class DepreciateDto {
  @ApiProperty({ example: '2026-06-30' }) @IsCalendarDate() through_date: string;
}

export class ImpairmentDto {
  @RequiredMoney(POSITIVE, { example: 2500 }) amount: number;
  @OptionalText(1000, { example: 'Damage' }) reason?: string;
  @OptionalMoney(0, { example: 20000 }) fair_value?: number;
  @OptionalField(
    { example: '2026-06-30', description: 'Default: the current business day.' },
    IsCalendarDate(),
  )
  event_date?: string;
}

export class RevaluationDto {
  @RequiredMoney(0, { example: 21000 }) fair_value: number;
  @OptionalText(1000, { example: 'Appraisal' }) reason?: string;
  @OptionalField({ example: '2026-06-30' }, IsCalendarDate()) event_date?: string;
}

@ResourceResponse('fixed_asset')
export class FixedAssetResponse {
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
}

@ResourceResponse('fixed_asset_event', { objectEnum: true, tail: ['created_at'] })
export class AssetEventResponse {
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
