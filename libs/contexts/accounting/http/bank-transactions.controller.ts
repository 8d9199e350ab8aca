import { Body, Controller, Param, Query, Req } from '@nestjs/common';
import { ApiBody, ApiExtraModels, ApiTags, getSchemaPath } from '@nestjs/swagger';
import type { Request } from 'express';
import { ApiResource } from '#platform/http/expand/expand-registry';
import { RetrieveQueryDto } from '#platform/http/list/list-query.dto';
import { Route } from '#platform/http/route';
import { validateAs } from '#platform/imports/import-registry';
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

  @Route('GET', '', {
    scopes: 'accounting:read',
    summary: 'List bank transactions',
    description: 'Filters bank_account_id, type, status, date_from, date_to (transaction_date).',
    returns: BankTransactionListResponse,
  })
  list(@Query() query: BankTransactionListQuery, @Req() req: Request) {
    return this.bank.list(query, req.originalUrl.split('?')[0]);
  }

  @Route('GET', ':id', {
    scopes: 'accounting:read',
    summary: 'Retrieve a bank transaction',
    returns: BankTransactionResponse,
  })
  retrieve(@Param('id') id: string, @Query() _query: RetrieveQueryDto) {
    return this.bank.retrieve(id);
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
