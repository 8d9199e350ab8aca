import { Controller, Get, Query, Req } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { RequireScopes } from '../../../platform/auth/decorators';
import { ApiListResponse } from '../../../platform/http/list/api-list-response';
import { ReorderReportService } from '../application/reorder-report.service';
import { ReorderReportQueryDto, ReorderReportRowResponse } from './reorder-report.dto';

@ApiTags('Purchasing')
@Controller('purchasing/reorder-report')
export class ReorderReportController {
  constructor(private readonly report: ReorderReportService) {}

  @Get()
  @RequireScopes('purchasing:read')
  @ApiOperation({
    summary: 'Reorder report',
    description:
      'One row per stock balance (product and location), newest balance first, cursor-paginated by balance id: daily demand over demand_window (default 90), its basis, the reorder point and where it came from, cover-through date and the suggested order quantity. Formulas: docs/api-decisions.md, "Replenishment".',
  })
  @ApiListResponse(ReorderReportRowResponse)
  list(@Query() query: ReorderReportQueryDto, @Req() req: Request) {
    return this.report.report(query, req.originalUrl.split('?')[0]);
  }
}
