import { Body, Controller, Param } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiResource } from '#platform/http/expand/expand-registry';
import { Route } from '#platform/http/route';
import { StandardRoutes } from '#platform/http/standard-routes';
import { AccountsService } from '../application/accounts.service';
import {
  AccountListQueryDto,
  AccountResponse,
  AccountTagDto,
  CreateAccountDto,
  MergeAccountDto,
  UpdateAccountDto,
} from './account.dto';

@ApiTags('Accounts')
@ApiResource('account')
@Controller('accounts')
@StandardRoutes({
  service: 'accounts',
  scope: 'accounts',
  model: AccountResponse,
  create: [CreateAccountDto, 'Create a customer account', { description: 'Emits account.created.' }],
  list: [
    AccountListQueryDto,
    'List accounts',
    { description: 'Newest first; deleted accounts only with include_deleted=true.' },
  ],
  retrieve: [
    'Retrieve an account',
    { description: 'Deleted and merged accounts are returned with deleted: true.' },
  ],
  update: [
    UpdateAccountDto,
    'Update an account',
    {
      description:
        'Emits account.updated, plus account.credit_limit.updated / account.terms.updated when those change. 409 on a deleted account.',
    },
  ],
  delete: [
    'Delete an account (soft)',
    { description: 'status becomes deleted; emits account.deleted. 409 when already deleted.' },
  ],
})
export class AccountsController {
  constructor(private readonly accounts: AccountsService) {}

  @Route('POST', ':id/merge', {
    scopes: 'accounts:write',
    summary: 'Merge another account into this one',
    description:
      'Moves addresses, contacts, payment methods and pricing policies of the source here; the source ends deleted with merged_into_id. Emits account.deleted (source) and account.merged (this account).',
    code: 200,
    returns: AccountResponse,
  })
  merge(@Param('id') id: string, @Body() body: MergeAccountDto) {
    return this.accounts.merge(id, body.source_account_id);
  }

  @Route('POST', ':id/tags', {
    scopes: 'accounts:write',
    summary: 'Attach a tag to an account',
    description:
      'Idempotent; emits account.updated (previous tag_ids) when newly attached. 400 on an unknown tag_id, 409 on a deleted account.',
    code: 200,
    returns: AccountResponse,
  })
  addTag(@Param('id') id: string, @Body() body: AccountTagDto) {
    return this.accounts.addTag(id, body.tag_id);
  }

  @Route('DELETE', ':id/tags/:tag_id', {
    scopes: 'accounts:write',
    summary: 'Detach a tag from an account',
    description: '404 when the tag is not attached; emits account.updated. Returns the account.',
    returns: AccountResponse,
  })
  removeTag(@Param('id') id: string, @Param('tag_id') tagId: string) {
    return this.accounts.removeTag(id, tagId);
  }
}
