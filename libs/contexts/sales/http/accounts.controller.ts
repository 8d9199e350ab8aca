import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { RequireScopes } from '../../../platform/auth/decorators';
import { ApiResource } from '../../../platform/http/expand/expand-registry';
import { RetrieveQueryDto } from '../../../platform/http/list/list-query.dto';
import { AccountsService } from '../application/accounts.service';
import {
  AccountListQueryDto,
  AccountResponse,
  AccountTagDto,
  CreateAccountDto,
  MergeAccountDto,
  UpdateAccountDto,
} from './account.dto';

const path = (req: Request) => req.originalUrl.split('?')[0];

@ApiTags('Accounts')
@ApiResource('account')
@Controller('accounts')
export class AccountsController {
  constructor(private readonly accounts: AccountsService) {}

  @Post()
  @RequireScopes('accounts:write')
  @ApiOperation({ summary: 'Create a customer account', description: 'Emits account.created.' })
  @ApiResponse({ status: 201, type: AccountResponse })
  create(@Body() body: CreateAccountDto) {
    return this.accounts.create(body);
  }

  @Get()
  @RequireScopes('accounts:read')
  @ApiOperation({
    summary: 'List accounts',
    description: 'Newest first; deleted accounts only with include_deleted=true.',
  })
  list(@Query() query: AccountListQueryDto, @Req() req: Request) {
    return this.accounts.list(query, path(req));
  }

  @Get(':id')
  @RequireScopes('accounts:read')
  @ApiOperation({
    summary: 'Retrieve an account',
    description: 'Deleted and merged accounts are returned with deleted: true.',
  })
  @ApiResponse({ status: 200, type: AccountResponse })
  retrieve(@Param('id') id: string, @Query() _query: RetrieveQueryDto) {
    return this.accounts.retrieve(id);
  }

  @Patch(':id')
  @RequireScopes('accounts:write')
  @ApiOperation({
    summary: 'Update an account',
    description:
      'Emits account.updated, plus account.credit_limit.updated / account.terms.updated when those change. 409 on a deleted account.',
  })
  @ApiResponse({ status: 200, type: AccountResponse })
  update(@Param('id') id: string, @Body() body: UpdateAccountDto) {
    return this.accounts.update(id, body);
  }

  @Delete(':id')
  @RequireScopes('accounts:write')
  @ApiOperation({
    summary: 'Delete an account (soft)',
    description: 'status becomes deleted; emits account.deleted. 409 when already deleted.',
  })
  delete(@Param('id') id: string) {
    return this.accounts.delete(id);
  }

  @Post(':id/merge')
  @HttpCode(200)
  @RequireScopes('accounts:write')
  @ApiOperation({
    summary: 'Merge another account into this one',
    description:
      'Moves addresses, contacts, payment methods and pricing policies of the source here; the source ends deleted with merged_into_id. Emits account.deleted (source) and account.merged (this account).',
  })
  @ApiResponse({ status: 200, type: AccountResponse })
  merge(@Param('id') id: string, @Body() body: MergeAccountDto) {
    return this.accounts.merge(id, body.source_account_id);
  }

  @Post(':id/tags')
  @HttpCode(200)
  @RequireScopes('accounts:write')
  @ApiOperation({
    summary: 'Attach a tag to an account',
    description:
      'Idempotent; emits account.updated (previous tag_ids) when newly attached. 400 on an unknown tag_id, 409 on a deleted account.',
  })
  @ApiResponse({ status: 200, type: AccountResponse })
  addTag(@Param('id') id: string, @Body() body: AccountTagDto) {
    return this.accounts.addTag(id, body.tag_id);
  }

  @Delete(':id/tags/:tag_id')
  @RequireScopes('accounts:write')
  @ApiOperation({
    summary: 'Detach a tag from an account',
    description: '404 when the tag is not attached; emits account.updated. Returns the account.',
  })
  @ApiResponse({ status: 200, type: AccountResponse })
  removeTag(@Param('id') id: string, @Param('tag_id') tagId: string) {
    return this.accounts.removeTag(id, tagId);
  }
}
