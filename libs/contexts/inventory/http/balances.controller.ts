import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiResource } from '#platform/http/expand/expand-registry';
import { StandardRoutes } from '#platform/http/standard-routes';
import { BalancesService } from '../application/balances.service';
import { BalanceListQueryDto, BalanceResponse, UpdateBalanceDto } from './balance.dto';

@ApiTags('Inventory')
@ApiResource('inventory_balance')
@Controller('inventory/balances')
@StandardRoutes({
  service: BalancesService,
  scope: 'inventory',
  model: BalanceResponse,
  list: [
    BalanceListQueryDto,
    'List stock balances',
    {
      description:
        'One per product (and variant) and location; newest first. Filters product_id, location_id, below_reorder_point.',
      list: BalanceResponse,
    },
  ],
  retrieve: ['Retrieve a stock balance'],
  update: [
    UpdateBalanceDto,
    'Update the planning fields of a balance',
    {
      description:
        'reorder_point, reorder_quantity, safety_stock. A reorder point that moves the balance across it emits inventory.low_stock or inventory.back_in_stock.',
    },
  ],
})
export class BalancesController {}
