import { Body, Controller, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { ApiBody, ApiExtraModels, ApiOperation, ApiResponse, ApiTags, getSchemaPath } from '@nestjs/swagger';
import type { Request } from 'express';
import { RequireScopes } from '../../../platform/auth/decorators';
import { ApiResource } from '../../../platform/http/expand/expand-registry';
import { RetrieveQueryDto } from '../../../platform/http/list/list-query.dto';
import { validateAs } from '../../../platform/imports/import-registry';
import { BankTransactionsService } from '../application/bank-transactions.service';
import { SubledgerReconciliationService } from '../application/subledger-reconciliation.service';
import { VendorBillsService } from '../application/vendor-bills.service';
import { AccountingError } from '../domain/accounting-error';
import {
  BankTransactionInputDto,
  BankTransactionListQuery,
  BankTransactionListResponse,
  BankTransactionResponse,
  CreateVendorBillDto,
  ImportBankTransactionsDto,
  MatchDepositDto,
  SubledgerReconciliationResponse,
  SubledgerReportQuery,
  VendorBillListQuery,
  VendorBillPaymentDto,
  VendorBillResponse,
} from './payables.dto';

@ApiTags('Bank transactions')
@ApiResource('bank_transaction')
@ApiExtraModels(BankTransactionInputDto, ImportBankTransactionsDto)
@Controller('accounting/bank-transactions')
export class BankTransactionsController {
  constructor(private readonly bank: BankTransactionsService) {}

  @Post()
  @RequireScopes('accounting:write')
  @ApiOperation({
    summary: 'Import bank transactions',
    description:
      'One transaction, or `{ "transactions": [...] }` (1..500, all or none). Nothing is posted until a deposit is matched.',
  })
  @ApiBody({
    schema: {
      oneOf: [
        { $ref: getSchemaPath(BankTransactionInputDto) },
        { $ref: getSchemaPath(ImportBankTransactionsDto) },
      ],
    },
  })
  @ApiResponse({
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

  @Get()
  @RequireScopes('accounting:read')
  @ApiOperation({
    summary: 'List bank transactions',
    description: 'Filters bank_account_id, type, status, date_from, date_to (transaction_date).',
  })
  @ApiResponse({ status: 200, type: BankTransactionListResponse })
  list(@Query() query: BankTransactionListQuery, @Req() req: Request) {
    return this.bank.list(query, req.originalUrl.split('?')[0]);
  }

  @Get(':id')
  @RequireScopes('accounting:read')
  @ApiOperation({ summary: 'Retrieve a bank transaction' })
  @ApiResponse({ status: 200, type: BankTransactionResponse })
  retrieve(@Param('id') id: string, @Query() _query: RetrieveQueryDto) {
    return this.bank.retrieve(id);
  }

  @Post(':id/match-deposit-to-invoices')
  @HttpCode(200)
  @RequireScopes('accounting:write')
  @ApiOperation({
    summary: 'Match a deposit to invoices',
    description:
      'Records a payment of the customer account applied to the invoices, posts one BANK_DEPOSIT entry (Dr bank, Cr receivables, ' +
      'Cr customer credit or suspense for the remainder) and marks the deposit matched. 409 invalid_state when already matched or a withdrawal.',
  })
  @ApiResponse({ status: 200, type: BankTransactionResponse })
  match(@Param('id') id: string, @Body() body: MatchDepositDto) {
    return this.bank.matchDeposit(id, body);
  }
}

@ApiTags('Vendor bills')
@ApiResource('vendor_bill')
@Controller('vendor-bills')
export class VendorBillsController {
  constructor(private readonly bills: VendorBillsService) {}

  @Post()
  @RequireScopes('purchasing:write')
  @ApiOperation({
    summary: 'Record a vendor bill',
    description: 'Posts AP_BILL: Dr debit_account_id, Cr payables.',
  })
  @ApiResponse({ status: 201, type: VendorBillResponse })
  create(@Body() body: CreateVendorBillDto) {
    return this.bills.create(body);
  }

  @Get()
  @RequireScopes('purchasing:read')
  @ApiOperation({ summary: 'List vendor bills', description: 'Filter status.' })
  list(@Query() query: VendorBillListQuery, @Req() req: Request) {
    return this.bills.list(query, req.originalUrl.split('?')[0]);
  }

  @Get(':id')
  @RequireScopes('purchasing:read')
  @ApiOperation({ summary: 'Retrieve a vendor bill with its payments' })
  @ApiResponse({ status: 200, type: VendorBillResponse })
  retrieve(@Param('id') id: string, @Query() _query: RetrieveQueryDto) {
    return this.bills.retrieve(id);
  }

  @Post(':id/payments')
  @RequireScopes('purchasing:write')
  @ApiOperation({
    summary: 'Pay a vendor bill',
    description: 'Posts AP_PAYMENT: Dr payables, Cr the bank account. At most the amount due.',
  })
  @ApiResponse({ status: 201, type: VendorBillResponse })
  pay(@Param('id') id: string, @Body() body: VendorBillPaymentDto) {
    return this.bills.pay(id, body);
  }

  @Post(':id/void')
  @HttpCode(200)
  @RequireScopes('purchasing:write')
  @ApiOperation({
    summary: 'Void an unpaid vendor bill',
    description: 'Posts the bill entry reversed; 409 invalid_state once paid in part or in full.',
  })
  @ApiResponse({ status: 200, type: VendorBillResponse })
  void(@Param('id') id: string) {
    return this.bills.void(id);
  }
}

@ApiTags('Reports')
@Controller('reports')
export class ReportsController {
  constructor(private readonly reconciliation: SubledgerReconciliationService) {}

  @Get('subledger-reconciliation')
  @RequireScopes('accounting:read')
  @ApiOperation({
    summary: 'Subledger reconciliation',
    description:
      "AR, AP and inventory subledgers against their control accounts as of the entity's business day; `subledger` selects one.",
  })
  @ApiResponse({ status: 200, type: SubledgerReconciliationResponse })
  report(@Query() query: SubledgerReportQuery) {
    if (query.as_of_date !== undefined) {
      throw new AccountingError('unsupported_param', {
        param: 'as_of_date',
        hint: "as_of_date is no longer supported: the report is always as of the entity's current business day.",
      });
    }
    return this.reconciliation.report(query.subledger);
  }
}
