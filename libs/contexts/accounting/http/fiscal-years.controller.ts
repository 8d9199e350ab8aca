import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiResource } from '#platform/http/expand/expand-registry';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { StandardRoutes } from '#platform/http/standard-routes';
import { FiscalYearsService } from '../application/fiscal-years.service';
import { CreateFiscalYearDto, FiscalYearResponse } from './fiscal-year.dto';

@ApiTags('Accounting')
@ApiResource('fiscal_year')
@Controller('accounting/fiscal-years')
@StandardRoutes({
  service: FiscalYearsService,
  scope: 'accounting',
  model: FiscalYearResponse,
  create: [
    CreateFiscalYearDto,
    'Create a fiscal year',
    { description: 'With monthly_periods (default) one open period per month is created.' },
  ],
  list: [ListQueryDto, 'List fiscal years'],
  retrieve: ['Retrieve a fiscal year'],
  actions: {
    close: [
      'Close a fiscal year and its open periods',
      { description: '409 invalid_state while a period holds drafts or pending approvals.' },
    ],
    reopen: ['Reopen a fiscal year (its periods stay as they are)'],
  },
})
export class FiscalYearsController {}
