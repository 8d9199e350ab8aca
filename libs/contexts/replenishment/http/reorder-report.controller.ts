import { Controller, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { ReorderReportService } from '../application/reorder-report.service';
import { ReorderReportQueryDto, ReorderReportRowResponse } from './reorder-report.dto';
import { Route } from '#platform/http/route';
import { requestPath } from '#platform/http/standard-routes';

@ApiTags('Purchasing')
@Controller('purchasing/reorder-report')
export class ReorderReportController {
  constructor(private readonly report: ReorderReportService) {}

  @Route('GET', '', {
    scopes: 'purchasing:read',
    summary: 'Reorder report',
    description:
      'One row per stock balance (product and location), newest balance first, cursor-paginated by balance id: daily demand over demand_window (default 90), its basis, the reorder point and where it came from, cover-through date and the suggested order quantity. Formulas: docs/api-decisions.md, "Replenishment".',
    list: ReorderReportRowResponse,
  })
  list(@Query() query: ReorderReportQueryDto, @Req() req: Request) {
    return this.report.report(query, requestPath(req));
  }
}
