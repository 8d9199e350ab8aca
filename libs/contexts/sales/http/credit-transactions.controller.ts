import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiResource } from '#platform/http/expand/expand-registry';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { StandardRoutes } from '#platform/http/standard-routes';
import { CustomerCreditsService } from '../application/customer-credits.service';
import { CreditTransactionResponse } from './credit-transaction.dto';

@ApiTags('Accounts')
@ApiResource('credit_transaction')
@Controller('accounts')
@StandardRoutes({
  service: CustomerCreditsService,
  scope: 'accounts',
  model: CreditTransactionResponse,
  path: ':id/credit-transactions',
  id: 'transaction_id',
  list: [
    ListQueryDto,
    "List an account's credit transactions",
    {
      description:
        "Every movement of the account's credit_balance, newest first, cursor-paginated: credit from returns refunded to credit and from unapplied bank deposits (positive), credit spent on invoices and refunds of those payments (negative and positive). Each carries the balance after it.",
    },
  ],
  retrieve: ['Retrieve a credit transaction'],
})
/** An account's customer credit transactions, at `accounts/{id}/credit-transactions`. */
export class CreditTransactionsController {}
