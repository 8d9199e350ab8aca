import { Controller, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { SubledgerReconciliationService } from '../application/subledger-reconciliation.service';
import { AccountingError } from '../domain/accounting-error';
import { SubledgerReconciliationResponse, SubledgerReportQuery } from './subledger-reconciliation.dto';
import { Route } from '#platform/http/route';

@ApiTags('Reports')
@Controller('reports')
export class ReportsController {
  constructor(private readonly reconciliation: SubledgerReconciliationService) {}

  @Route('GET', 'subledger-reconciliation', {
    scopes: 'accounting:read',
    summary: 'Subledger reconciliation',
    description:
      "AR, AP and inventory subledgers against their control accounts as of the entity's business day; `subledger` selects one.",
    returns: SubledgerReconciliationResponse,
  })
  report(@Query() query: SubledgerReportQuery) {
    if (query.as_of_date !== undefined) {
      throw new AccountingError('unsupported_param', {
        param: 'as_of_date',
        hint: "as_of_date is no longer supported: the report is always as of the entity's current business day.",
      });
    }
    return this.reconciliation.report(query.subledger);
  }
}
