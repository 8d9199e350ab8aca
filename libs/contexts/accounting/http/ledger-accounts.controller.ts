import { Body, Controller, Param, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { ApiResource } from '#platform/http/expand/expand-registry';
import { RetrieveQueryDto } from '#platform/http/list/list-query.dto';
import { Route } from '#platform/http/route';
import { LedgerAccountsService } from '../application/ledger-accounts.service';
import {
  CreateLedgerAccountDto,
  LedgerAccountListQuery,
  LedgerAccountResponse,
  UpdateLedgerAccountDto,
} from './ledger-account.dto';

const path = (req: Request) => req.originalUrl.split('?')[0];

@ApiTags('Accounting')
@ApiResource('ledger_account')
@Controller('accounting/ledger-accounts')
export class LedgerAccountsController {
  constructor(private readonly accounts: LedgerAccountsService) {}

  @Route('POST', '', {
    scopes: 'accounting:write',
    summary: 'Create a ledger account',
    returns: LedgerAccountResponse,
  })
  create(@Body() body: CreateLedgerAccountDto) {
    return this.accounts.create(body);
  }

  @Route('GET', '', {
    scopes: 'accounting:read',
    summary: 'List ledger accounts',
    description: 'Newest first; filters type, control_role, postable.',
  })
  list(@Query() query: LedgerAccountListQuery, @Req() req: Request) {
    return this.accounts.list(query, path(req));
  }

  @Route('GET', ':id', {
    scopes: 'accounting:read',
    summary: 'Retrieve a ledger account',
    returns: LedgerAccountResponse,
  })
  retrieve(@Param('id') id: string, @Query() _query: RetrieveQueryDto) {
    return this.accounts.retrieve(id);
  }

  @Route('PATCH', ':id', {
    scopes: 'accounting:write',
    summary: 'Update a ledger account',
    returns: LedgerAccountResponse,
  })
  update(@Param('id') id: string, @Body() body: UpdateLedgerAccountDto) {
    return this.accounts.update(id, body);
  }
}
