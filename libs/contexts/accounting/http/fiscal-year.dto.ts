import { ApiProperty } from '@nestjs/swagger';
import { OptionalBoolean, RequiredText } from '#platform/http/dto-fields';
import { ResourceResponse } from '#platform/http/response-schema';
import { END_NOT_BEFORE_START } from './accounting-period.dto';
import { IsCalendarDate } from './calendar-date.validator';

@END_NOT_BEFORE_START
export class CreateFiscalYearDto {
  @RequiredText(100, { example: 'FY2026' }) name: string;
  @ApiProperty({ example: '2026-01-01' }) @IsCalendarDate() start_date: string;
  @ApiProperty({ example: '2026-12-31' }) @IsCalendarDate() end_date: string;
  @OptionalBoolean({ default: true, description: 'Creates one open period per calendar month.' })
  monthly_periods?: boolean;
}

@ResourceResponse('fiscal_year')
export class FiscalYearResponse {
  @ApiProperty({ example: 'FY2026' }) name: string;
  @ApiProperty({ example: '2026-01-01' }) start_date: string;
  @ApiProperty({ example: '2026-12-31' }) end_date: string;
  @ApiProperty({ enum: ['open', 'closed'] }) status: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) closed_at: string | null;
}
