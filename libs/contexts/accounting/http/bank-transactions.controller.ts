import { Body, Controller, Param } from '@nestjs/common';
import { ApiBody, ApiExtraModels, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { ApiResource } from '#platform/http/expand/expand-registry';
import { Route } from '#platform/http/route';
import { validateAs } from '#platform/imports/import-registry';
import { StandardRoutes } from '#platform/http/standard-routes';
import { BankTransactionsService } from '../application/bank-transactions.service';
import {
  BankTransactionInputDto,
  BankTransactionListQuery,
  BankTransactionListResponse,
  BankTransactionResponse,
  ImportBankTransactionsDto,
  MatchDepositDto,
} from './bank-transaction.dto';

@ApiTags('Bank transactions')
@ApiResource('bank_transaction')
@ApiExtraModels(BankTransactionInputDto, ImportBankTransactionsDto)
@Controller('accounting/bank-transactions')
@StandardRoutes({
  service: BankTransactionsService,
  scope: 'accounting',
  model: BankTransactionResponse,
  list: [
    BankTransactionListQuery,
    'List bank transactions',
    {
      description: 'Filters bank_account_id, type, status, date_from, date_to (transaction_date).',
      returns: BankTransactionListResponse,
    },
  ],
  retrieve: ['Retrieve a bank transaction'],
})
export class BankTransactionsController {
  constructor(private readonly bank: BankTransactionsService) {}

  @Route('POST', '', {
    scopes: 'accounting:write',
    summary: 'Import bank transactions',
    description:
      'One transaction, or `{ "transactions": [...] }` (1..500, all or none). Nothing is posted until a deposit is matched.',
    response: {
      status: 201,
      description: 'The transaction; a batch answers a list of them.',
      schema: {
        oneOf: [
          { $ref: getSchemaPath(BankTransactionResponse) },
          {
            type: 'object',
            required: ['object', 'data', 'has_more'],
            properties: {
              object: { type: 'string', enum: ['list'] },
              data: { type: 'array', items: { $ref: getSchemaPath(BankTransactionResponse) } },
              has_more: { type: 'boolean', enum: [false] },
            },
          },
        ],
      },
    },
  })
  @ApiBody({
    schema: {
      oneOf: [
        { $ref: getSchemaPath(BankTransactionInputDto) },
        { $ref: getSchemaPath(ImportBankTransactionsDto) },
      ],
    },
  })
  async create(@Body() body: Record<string, unknown>) {
    if (Object.prototype.hasOwnProperty.call(body, 'transactions')) {
      const batch = await validateAs(ImportBankTransactionsDto, body);
      const data = await this.bank.import(batch.transactions, (n) => `transactions[${n}].`);
      return { object: 'list' as const, data, has_more: false };
    }
    const single = await validateAs(BankTransactionInputDto, body);
    return (await this.bank.import([single], () => ''))[0];
  }

  @Route('POST', ':id/match-deposit-to-invoices', {
    scopes: 'accounting:write',
    summary: 'Match a deposit to invoices',
    description:
      'Records a payment of the customer account applied to the invoices, posts one BANK_DEPOSIT entry (Dr bank, Cr receivables, ' +
      'Cr customer credit or suspense for the remainder) and marks the deposit matched. 409 invalid_state when already matched or a withdrawal.',
    code: 200,
    returns: BankTransactionResponse,
  })
  match(@Param('id') id: string, @Body() body: MatchDepositDto) {
    return this.bank.matchDeposit(id, body);
  }
}
