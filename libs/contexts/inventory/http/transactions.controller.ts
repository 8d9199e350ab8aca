import { Controller, Get, Param, Query, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { RequireScopes } from '../../../platform/auth/decorators';
import { ApiResource } from '../../../platform/http/expand/expand-registry';
import { ApiListResponse } from '../../../platform/http/list/api-list-response';
import { RetrieveQueryDto } from '../../../platform/http/list/list-query.dto';
import { TransactionsService } from '../application/transactions.service';
import { TransactionListQueryDto, TransactionResponse } from './transaction.dto';

@ApiTags('Inventory')
@ApiResource('inventory_transaction')
@Controller('inventory/transactions')
export class TransactionsController {
  constructor(private readonly transactions: TransactionsService) {}

  @Get()
  @RequireScopes('inventory:read')
  @ApiOperation({
    summary: 'List stock ledger transactions',
    description:
      'Immutable; newest first. Filters product_id, location_id, type, source_id, created_after, created_before.',
  })
  @ApiListResponse(TransactionResponse)
  list(@Query() query: TransactionListQueryDto, @Req() req: Request) {
    return this.transactions.list(query, req.originalUrl.split('?')[0]);
  }

  @Get(':id')
  @RequireScopes('inventory:read')
  @ApiOperation({ summary: 'Retrieve a stock ledger transaction' })
  @ApiResponse({ status: 200, type: TransactionResponse })
  retrieve(@Param('id') id: string, @Query() _query: RetrieveQueryDto) {
    return this.transactions.retrieve(id);
  }
}
