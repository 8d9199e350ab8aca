import { Body, Controller, Param, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { ApiResource } from '#platform/http/expand/expand-registry';
import { RetrieveQueryDto } from '#platform/http/list/list-query.dto';
import { Route } from '#platform/http/route';
import { AccountingPeriodsService } from '../application/accounting-periods.service';
import { CreatePeriodDto, PeriodListQuery, PeriodResponse } from './accounting-period.dto';

const path = (req: Request) => req.originalUrl.split('?')[0];

@ApiTags('Accounting')
@ApiResource('accounting_period')
@Controller('accounting/periods')
export class PeriodsController {
  constructor(private readonly periods: AccountingPeriodsService) {}

  @Route('POST', '', {
    scopes: 'accounting:write',
    summary: 'Create an accounting period',
    description: 'Periods of one entity and mode never overlap (409 resource_conflict).',
    returns: PeriodResponse,
  })
  create(@Body() body: CreatePeriodDto) {
    return this.periods.create(body);
  }

  @Route('GET', '', { scopes: 'accounting:read', summary: 'List accounting periods' })
  list(@Query() query: PeriodListQuery, @Req() req: Request) {
    return this.periods.list(query, path(req));
  }

  @Route('GET', ':id', {
    scopes: 'accounting:read',
    summary: 'Retrieve an accounting period',
    returns: PeriodResponse,
  })
  retrieve(@Param('id') id: string, @Query() _query: RetrieveQueryDto) {
    return this.periods.retrieve(id);
  }

  @Route('POST', ':id/close', {
    scopes: 'accounting:write',
    summary: 'Close an accounting period',
    description: '409 invalid_state while it holds drafts or entries pending approval.',
    code: 200,
    returns: PeriodResponse,
  })
  close(@Param('id') id: string) {
    return this.periods.close(id);
  }

  @Route('POST', ':id/reopen', {
    scopes: 'accounting:write',
    summary: 'Reopen a closed accounting period',
    code: 200,
    returns: PeriodResponse,
  })
  reopen(@Param('id') id: string) {
    return this.periods.reopen(id);
  }
}
