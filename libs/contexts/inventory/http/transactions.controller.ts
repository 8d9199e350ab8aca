import { Controller, Param, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { ApiResource } from '#platform/http/expand/expand-registry';
import { RetrieveQueryDto } from '#platform/http/list/list-query.dto';
import { Route } from '#platform/http/route';
import { TransactionsService } from '../application/transactions.service';
import { TransactionListQueryDto, TransactionResponse } from './transaction.dto';

@ApiTags('Inventory')
@ApiResource('inventory_transaction')
@Controller('inventory/transactions')
export class TransactionsController {
  constructor(private readonly transactions: TransactionsService) {}

  @Route('GET', '', {
    scopes: 'inventory:read',
    summary: 'List stock ledger transactions',
    description:
      'Immutable; newest first. Filters product_id, location_id, type, source_id, created_after, created_before.',
    list: TransactionResponse,
  })
  list(@Query() query: TransactionListQueryDto, @Req() req: Request) {
    return this.transactions.list(query, req.originalUrl.split('?')[0]);
  }

  @Route('GET', ':id', {
    scopes: 'inventory:read',
    summary: 'Retrieve a stock ledger transaction',
    returns: TransactionResponse,
  })
  retrieve(@Param('id') id: string, @Query() _query: RetrieveQueryDto) {
    return this.transactions.retrieve(id);
  }
}
