import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiResource } from '#platform/http/expand/expand-registry';
import { StandardRoutes } from '#platform/http/standard-routes';
import { TransactionsService } from '../application/transactions.service';
import { TransactionListQueryDto, TransactionResponse } from './transaction.dto';

@ApiTags('Inventory')
@ApiResource('inventory_transaction')
@Controller('inventory/transactions')
@StandardRoutes({
  service: TransactionsService,
  scope: 'inventory',
  model: TransactionResponse,
  list: [
    TransactionListQueryDto,
    'List stock ledger transactions',
    {
      description:
        'Immutable; newest first. Filters product_id, location_id, type, source_id, created_after, created_before.',
      list: TransactionResponse,
    },
  ],
  retrieve: ['Retrieve a stock ledger transaction'],
})
export class TransactionsController {}
