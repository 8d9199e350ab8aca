import { Body, Controller, Param, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { ApiResource } from '#platform/http/expand/expand-registry';
import { ListQueryDto, RetrieveQueryDto } from '#platform/http/list/list-query.dto';
import { Route } from '#platform/http/route';
import { FiscalYearsService } from '../application/fiscal-years.service';
import { CreateFiscalYearDto, FiscalYearResponse } from './fiscal-year.dto';

const path = (req: Request) => req.originalUrl.split('?')[0];

@ApiTags('Accounting')
@ApiResource('fiscal_year')
@Controller('accounting/fiscal-years')
export class FiscalYearsController {
  constructor(private readonly years: FiscalYearsService) {}

  @Route('POST', '', {
    scopes: 'accounting:write',
    summary: 'Create a fiscal year',
    description: 'With monthly_periods (default) one open period per month is created.',
    returns: FiscalYearResponse,
  })
  create(@Body() body: CreateFiscalYearDto) {
    return this.years.create(body);
  }

  @Route('GET', '', { scopes: 'accounting:read', summary: 'List fiscal years' })
  list(@Query() query: ListQueryDto, @Req() req: Request) {
    return this.years.list(query, path(req));
  }

  @Route('GET', ':id', {
    scopes: 'accounting:read',
    summary: 'Retrieve a fiscal year',
    returns: FiscalYearResponse,
  })
  retrieve(@Param('id') id: string, @Query() _query: RetrieveQueryDto) {
    return this.years.retrieve(id);
  }

  @Route('POST', ':id/close', {
    scopes: 'accounting:write',
    summary: 'Close a fiscal year and its open periods',
    description: '409 invalid_state while a period holds drafts or pending approvals.',
    code: 200,
    returns: FiscalYearResponse,
  })
  close(@Param('id') id: string) {
    return this.years.close(id);
  }

  @Route('POST', ':id/reopen', {
    scopes: 'accounting:write',
    summary: 'Reopen a fiscal year (its periods stay as they are)',
    code: 200,
    returns: FiscalYearResponse,
  })
  reopen(@Param('id') id: string) {
    return this.years.reopen(id);
  }
}
