import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { RequireScopes } from '../../../platform/auth/decorators';
import { ApiResource } from '../../../platform/http/expand/expand-registry';
import { ListQueryDto, RetrieveQueryDto } from '../../../platform/http/list/list-query.dto';
import { AccountingSettingsService } from '../application/accounting-settings.service';
import { AccountingPeriodsService } from '../application/accounting-periods.service';
import { FiscalYearsService } from '../application/fiscal-years.service';
import { LedgerAccountsService } from '../application/ledger-accounts.service';
import {
  CreateFiscalYearDto,
  CreateLedgerAccountDto,
  CreatePeriodDto,
  FiscalYearResponse,
  LedgerAccountListQuery,
  LedgerAccountResponse,
  PeriodListQuery,
  PeriodResponse,
  SettingsResponse,
  UpdateLedgerAccountDto,
  UpdateSettingsDto,
} from './accounting.dto';

const path = (req: Request) => req.originalUrl.split('?')[0];

@ApiTags('Accounting')
@Controller('accounting/settings')
export class AccountingSettingsController {
  constructor(private readonly settings: AccountingSettingsService) {}

  @Get()
  @RequireScopes('accounting:read')
  @ApiOperation({
    summary: 'Retrieve the accounting settings',
    description: 'Time zone, current business day, approval threshold, entry-number prefix.',
  })
  @ApiResponse({ status: 200, type: SettingsResponse })
  retrieve(@Query() _query: RetrieveQueryDto) {
    return this.settings.retrieve();
  }

  @Patch()
  @RequireScopes('accounting:write')
  @ApiOperation({ summary: 'Update the accounting settings' })
  @ApiResponse({ status: 200, type: SettingsResponse })
  update(@Body() body: UpdateSettingsDto) {
    return this.settings.update(body);
  }
}

@ApiTags('Accounting')
@ApiResource('ledger_account')
@Controller('accounting/ledger-accounts')
export class LedgerAccountsController {
  constructor(private readonly accounts: LedgerAccountsService) {}

  @Post()
  @RequireScopes('accounting:write')
  @ApiOperation({ summary: 'Create a ledger account' })
  @ApiResponse({ status: 201, type: LedgerAccountResponse })
  create(@Body() body: CreateLedgerAccountDto) {
    return this.accounts.create(body);
  }

  @Get()
  @RequireScopes('accounting:read')
  @ApiOperation({
    summary: 'List ledger accounts',
    description: 'Newest first; filters type, control_role, postable.',
  })
  list(@Query() query: LedgerAccountListQuery, @Req() req: Request) {
    return this.accounts.list(query, path(req));
  }

  @Get(':id')
  @RequireScopes('accounting:read')
  @ApiOperation({ summary: 'Retrieve a ledger account' })
  @ApiResponse({ status: 200, type: LedgerAccountResponse })
  retrieve(@Param('id') id: string, @Query() _query: RetrieveQueryDto) {
    return this.accounts.retrieve(id);
  }

  @Patch(':id')
  @RequireScopes('accounting:write')
  @ApiOperation({ summary: 'Update a ledger account' })
  @ApiResponse({ status: 200, type: LedgerAccountResponse })
  update(@Param('id') id: string, @Body() body: UpdateLedgerAccountDto) {
    return this.accounts.update(id, body);
  }
}

@ApiTags('Accounting')
@ApiResource('fiscal_year')
@Controller('accounting/fiscal-years')
export class FiscalYearsController {
  constructor(private readonly years: FiscalYearsService) {}

  @Post()
  @RequireScopes('accounting:write')
  @ApiOperation({
    summary: 'Create a fiscal year',
    description: 'With monthly_periods (default) one open period per month is created.',
  })
  @ApiResponse({ status: 201, type: FiscalYearResponse })
  create(@Body() body: CreateFiscalYearDto) {
    return this.years.create(body);
  }

  @Get()
  @RequireScopes('accounting:read')
  @ApiOperation({ summary: 'List fiscal years' })
  list(@Query() query: ListQueryDto, @Req() req: Request) {
    return this.years.list(query, path(req));
  }

  @Get(':id')
  @RequireScopes('accounting:read')
  @ApiOperation({ summary: 'Retrieve a fiscal year' })
  @ApiResponse({ status: 200, type: FiscalYearResponse })
  retrieve(@Param('id') id: string, @Query() _query: RetrieveQueryDto) {
    return this.years.retrieve(id);
  }

  @Post(':id/close')
  @HttpCode(200)
  @RequireScopes('accounting:write')
  @ApiOperation({
    summary: 'Close a fiscal year and its open periods',
    description: '409 invalid_state while a period holds drafts or pending approvals.',
  })
  @ApiResponse({ status: 200, type: FiscalYearResponse })
  close(@Param('id') id: string) {
    return this.years.close(id);
  }

  @Post(':id/reopen')
  @HttpCode(200)
  @RequireScopes('accounting:write')
  @ApiOperation({ summary: 'Reopen a fiscal year (its periods stay as they are)' })
  @ApiResponse({ status: 200, type: FiscalYearResponse })
  reopen(@Param('id') id: string) {
    return this.years.reopen(id);
  }
}

@ApiTags('Accounting')
@ApiResource('accounting_period')
@Controller('accounting/periods')
export class PeriodsController {
  constructor(private readonly periods: AccountingPeriodsService) {}

  @Post()
  @RequireScopes('accounting:write')
  @ApiOperation({
    summary: 'Create an accounting period',
    description: 'Periods of one entity and mode never overlap (409 resource_conflict).',
  })
  @ApiResponse({ status: 201, type: PeriodResponse })
  create(@Body() body: CreatePeriodDto) {
    return this.periods.create(body);
  }

  @Get()
  @RequireScopes('accounting:read')
  @ApiOperation({ summary: 'List accounting periods' })
  list(@Query() query: PeriodListQuery, @Req() req: Request) {
    return this.periods.list(query, path(req));
  }

  @Get(':id')
  @RequireScopes('accounting:read')
  @ApiOperation({ summary: 'Retrieve an accounting period' })
  @ApiResponse({ status: 200, type: PeriodResponse })
  retrieve(@Param('id') id: string, @Query() _query: RetrieveQueryDto) {
    return this.periods.retrieve(id);
  }

  @Post(':id/close')
  @HttpCode(200)
  @RequireScopes('accounting:write')
  @ApiOperation({
    summary: 'Close an accounting period',
    description: '409 invalid_state while it holds drafts or entries pending approval.',
  })
  @ApiResponse({ status: 200, type: PeriodResponse })
  close(@Param('id') id: string) {
    return this.periods.close(id);
  }

  @Post(':id/reopen')
  @HttpCode(200)
  @RequireScopes('accounting:write')
  @ApiOperation({ summary: 'Reopen a closed accounting period' })
  @ApiResponse({ status: 200, type: PeriodResponse })
  reopen(@Param('id') id: string) {
    return this.periods.reopen(id);
  }
}
