import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiResource } from '#platform/http/expand/expand-registry';
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
  service: AccountsService,
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
  actions: {
    merge: [
      'Merge another account into this one',
      {
        input: MergeAccountDto,
        description:
          'Moves addresses, contacts, payment methods and pricing policies of the source here; the source ends deleted with merged_into_id. Emits account.deleted (source) and account.merged (this account).',
      },
    ],
    addTag: [
      'Attach a tag to an account',
      {
        path: 'tags',
        input: AccountTagDto,
        description:
          'Idempotent; emits account.updated (previous tag_ids) when newly attached. 400 on an unknown tag_id, 409 on a deleted account.',
      },
    ],
    removeTag: [
      'Detach a tag from an account',
      {
        method: 'DELETE',
        path: 'tags/:tag_id',
        description: '404 when the tag is not attached; emits account.updated. Returns the account.',
      },
    ],
  },
})
export class AccountsController {}
