import { Body, Controller, Param, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { ApiResource } from '#platform/http/expand/expand-registry';
import { RetrieveQueryDto } from '#platform/http/list/list-query.dto';
import { Route } from '#platform/http/route';
import { BalancesService } from '../application/balances.service';
import { BalanceListQueryDto, BalanceResponse, UpdateBalanceDto } from './balance.dto';

@ApiTags('Inventory')
@ApiResource('inventory_balance')
@Controller('inventory/balances')
export class BalancesController {
  constructor(private readonly balances: BalancesService) {}

  @Route('GET', '', {
    scopes: 'inventory:read',
    summary: 'List stock balances',
    description:
      'One per product (and variant) and location; newest first. Filters product_id, location_id, below_reorder_point.',
    list: BalanceResponse,
  })
  list(@Query() query: BalanceListQueryDto, @Req() req: Request) {
    return this.balances.list(query, req.originalUrl.split('?')[0]);
  }

  @Route('GET', ':id', {
    scopes: 'inventory:read',
    summary: 'Retrieve a stock balance',
    returns: BalanceResponse,
  })
  retrieve(@Param('id') id: string, @Query() _query: RetrieveQueryDto) {
    return this.balances.retrieve(id);
  }

  @Route('PATCH', ':id', {
    scopes: 'inventory:write',
    summary: 'Update the planning fields of a balance',
    description:
      'reorder_point, reorder_quantity, safety_stock. A reorder point that moves the balance across it emits inventory.low_stock or inventory.back_in_stock.',
    returns: BalanceResponse,
  })
  update(@Param('id') id: string, @Body() body: UpdateBalanceDto) {
    return this.balances.update(id, body);
  }
}
