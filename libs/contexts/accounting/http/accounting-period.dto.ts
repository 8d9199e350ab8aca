import { ApiProperty } from '@nestjs/swagger';
import { OptionalEnum, OptionalUuid, RequiredText } from '#platform/http/dto-fields';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { ResourceResponse } from '#platform/http/response-schema';
import { IsCalendarDate } from './calendar-date.validator';
import { CrossFieldRules } from '#platform/http/cross-field-rules';

const PERIOD_STATUSES = ['open', 'closed'];

/** The date order of a period or a fiscal year (checked by assertDateRange()). */
export const END_NOT_BEFORE_START = CrossFieldRules({
  kind: 'compare',
  field: 'end_date',
  op: '>=',
  than: 'start_date',
  param: 'end_date',
  sentence: 'end_date must not be before start_date.',
});

@END_NOT_BEFORE_START
export class CreatePeriodDto {
  @RequiredText(100, { example: '2026-11' }) name: string;
  @ApiProperty({ example: '2026-11-01' }) @IsCalendarDate() start_date: string;
  @ApiProperty({ example: '2026-11-30' }) @IsCalendarDate() end_date: string;
  @OptionalUuid() fiscal_year_id?: string;
}

export class PeriodListQuery extends ListQueryDto {
  @OptionalEnum(PERIOD_STATUSES) status?: string;
  @OptionalUuid() fiscal_year_id?: string;
}

@ResourceResponse('accounting_period')
export class PeriodResponse {
  @ApiProperty({ example: '2026-11' }) name: string;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) fiscal_year_id: string | null;
  @ApiProperty({ example: '2026-11-01' }) start_date: string;
  @ApiProperty({ example: '2026-11-30' }) end_date: string;
  @ApiProperty({ enum: PERIOD_STATUSES }) status: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) closed_at: string | null;
}
