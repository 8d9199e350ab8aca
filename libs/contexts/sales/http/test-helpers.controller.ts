import { Body, Controller } from '@nestjs/common';
import { ApiProperty, ApiTags } from '@nestjs/swagger';
import { IsISO8601, Matches } from 'class-validator';
import { CrossFieldRules } from '#platform/http/cross-field-rules';
import { CALENDAR_DATE_PATTERN, OptionalField } from '#platform/http/dto-fields';
import { Route } from '#platform/http/route';
import { CollectionsService, MAX_ADVANCE_DAYS } from '../application/collections.service';

@CrossFieldRules({
  kind: 'not_past',
  field: 'as_of',
  unit: 'day',
  within_days: MAX_ADVANCE_DAYS,
  param: 'as_of',
  sentence: `as_of, when sent, is a day from the entity's business day today (in its time zone) to ${MAX_ADVANCE_DAYS} days after it: the sweep never runs in the past.`,
})
export class RunCollectionsDto {
  @OptionalField(
    {
      format: 'date',
      example: '2026-12-31',
      description: `The business day to run the sweep as of: from the entity's business day today (the default) to ${MAX_ADVANCE_DAYS} days ahead.`,
    },
    Matches(CALENDAR_DATE_PATTERN, { message: 'as_of must be a date (YYYY-MM-DD)' }),
    IsISO8601({ strict: true }),
  )
  as_of?: string;
}

export class CollectionsRunResponse {
  @ApiProperty({ enum: ['collections_run'], example: 'collections_run' }) object: string;
  @ApiProperty({ format: 'date', example: '2026-12-31' }) as_of: string;
  @ApiProperty({ example: 1, description: 'Invoices this run marked overdue (invoice.overdue).' })
  overdue: number;
  @ApiProperty({ example: 1, description: 'Late-fee invoices this run issued (invoice.late_fee_applied).' })
  late_fees: number;
  @ApiProperty({ example: 0, description: 'Invoices another run held, or that failed; retried next run.' })
  skipped: number;
}

/**
 * Test helpers: what a test clock offers, in test mode only. A live key is refused with 403
 * test_mode_only.
 */
@ApiTags('Test helpers')
@Controller('test_helpers')
export class TestHelpersController {
  constructor(private readonly collections: CollectionsService) {}

  @Route('POST', 'collections/run', {
    scopes: 'orders:write',
    code: 200,
    summary: 'Run the collections sweep now (test mode)',
    description: `Test mode only (a live key gets 403 \`test_mode_only\`). Runs the collections sweep over the caller's entity's test-mode invoices now, as if its business day were \`as_of\` (default: today; at most ${MAX_ADVANCE_DAYS} days ahead; never in the past): each open invoice past its due date on that day is marked overdue (invoice.overdue) and charged the late fee the accounting settings set for that day (a late-fee invoice posted as LATE_FEE, invoice.late_fee_applied), exactly as the hourly sweep does when that day comes. Running it again changes nothing already done; the business day itself does not move.`,
    returns: CollectionsRunResponse,
  })
  async runCollections(@Body() body: RunCollectionsDto): Promise<CollectionsRunResponse> {
    return { object: 'collections_run', ...(await this.collections.runForCaller(body.as_of)) };
  }
}
