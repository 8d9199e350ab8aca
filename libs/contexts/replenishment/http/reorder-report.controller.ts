import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ReorderReportService } from '../application/reorder-report.service';
import { ReorderReportQueryDto, ReorderReportRowResponse } from './reorder-report.dto';
import { StandardRoutes } from '#platform/http/standard-routes';

@ApiTags('Purchasing')
@Controller('purchasing/reorder-report')
@StandardRoutes({
  service: ReorderReportService,
  scope: 'purchasing',
  model: ReorderReportRowResponse,
  list: [
    ReorderReportQueryDto,
    'Reorder report',
    {
      call: 'report',
      description:
        'One row per stock balance (product and location), newest balance first, cursor-paginated by balance id: daily demand over demand_window (default 90), its basis, the reorder point and where it came from, cover-through date and the suggested order quantity. Formulas: docs/api-decisions.md, "Replenishment".',
      list: ReorderReportRowResponse,
    },
  ],
})
export class ReorderReportController {}
