import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { RetiredQuery } from '#platform/http/described-query';
import { StandardRoutes } from '#platform/http/standard-routes';
import { SubledgerReconciliationService } from '../application/subledger-reconciliation.service';
import { SubledgerReconciliationResponse, SubledgerReportQuery } from './subledger-reconciliation.dto';

@ApiTags('Reports')
@Controller('reports')
@StandardRoutes({
  service: SubledgerReconciliationService,
  scope: 'accounting',
  model: SubledgerReconciliationResponse,
  actions: {
    report: [
      'Subledger reconciliation',
      {
        collection: true,
        method: 'GET',
        path: 'subledger-reconciliation',
        query: SubledgerReportQuery,
        url: false,
        description:
          "AR, AP and inventory subledgers against their control accounts as of the entity's business day; `subledger` selects one.",
        returns: SubledgerReconciliationResponse,
        decorators: [RetiredQuery('as_of_date')],
      },
    ],
  },
})
export class ReportsController {}
