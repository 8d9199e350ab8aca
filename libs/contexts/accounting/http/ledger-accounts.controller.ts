import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiResource } from '#platform/http/expand/expand-registry';
import { StandardRoutes } from '#platform/http/standard-routes';
import { LedgerAccountsService } from '../application/ledger-accounts.service';
import {
  CreateLedgerAccountDto,
  LedgerAccountListQuery,
  LedgerAccountResponse,
  UpdateLedgerAccountDto,
} from './ledger-account.dto';

@ApiTags('Accounting')
@ApiResource('ledger_account')
@Controller('accounting/ledger-accounts')
@StandardRoutes({
  service: LedgerAccountsService,
  scope: 'accounting',
  model: LedgerAccountResponse,
  create: [CreateLedgerAccountDto, 'Create a ledger account'],
  list: [
    LedgerAccountListQuery,
    'List ledger accounts',
    { description: 'Newest first; filters type, control_role, postable.' },
  ],
  retrieve: ['Retrieve a ledger account'],
  update: [UpdateLedgerAccountDto, 'Update a ledger account'],
})
export class LedgerAccountsController {}
