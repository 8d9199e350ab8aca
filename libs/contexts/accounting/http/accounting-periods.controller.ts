import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiResource } from '#platform/http/expand/expand-registry';
import { StandardRoutes } from '#platform/http/standard-routes';
import { AccountingPeriodsService } from '../application/accounting-periods.service';
import { CreatePeriodDto, PeriodListQuery, PeriodResponse } from './accounting-period.dto';

@ApiTags('Accounting')
@ApiResource('accounting_period')
@Controller('accounting/periods')
@StandardRoutes({
  service: AccountingPeriodsService,
  scope: 'accounting',
  model: PeriodResponse,
  create: [
    CreatePeriodDto,
    'Create an accounting period',
    { description: 'Periods of one entity and mode never overlap (409 resource_conflict).' },
  ],
  list: [PeriodListQuery, 'List accounting periods'],
  retrieve: ['Retrieve an accounting period'],
  actions: {
    close: [
      'Close an accounting period',
      { description: '409 invalid_state while it holds drafts or entries pending approval.' },
    ],
    reopen: ['Reopen a closed accounting period'],
  },
})
export class PeriodsController {}
