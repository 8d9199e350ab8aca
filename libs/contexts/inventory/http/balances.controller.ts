import { Body, Controller, Get, Param, Patch, Query, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { RequireScopes } from '../../../platform/auth/decorators';
import { ApiResource } from '../../../platform/http/expand/expand-registry';
import { ApiListResponse } from '../../../platform/http/list/api-list-response';
import { RetrieveQueryDto } from '../../../platform/http/list/list-query.dto';
import { BalancesService } from '../application/balances.service';
import { BalanceListQueryDto, BalanceResponse, UpdateBalanceDto } from './balance.dto';

@ApiTags('Inventory')
@ApiResource('inventory_balance')
@Controller('inventory/balances')
export class BalancesController {
  constructor(private readonly balances: BalancesService) {}

  @Get()
  @RequireScopes('inventory:read')
  @ApiOperation({
    summary: 'List stock balances',
    description:
      'One per product (and variant) and location; newest first. Filters product_id, location_id, below_reorder_point.',
  })
  @ApiListResponse(BalanceResponse)
  list(@Query() query: BalanceListQueryDto, @Req() req: Request) {
    return this.balances.list(query, req.originalUrl.split('?')[0]);
  }

  @Get(':id')
  @RequireScopes('inventory:read')
  @ApiOperation({ summary: 'Retrieve a stock balance' })
  @ApiResponse({ status: 200, type: BalanceResponse })
  retrieve(@Param('id') id: string, @Query() _query: RetrieveQueryDto) {
    return this.balances.retrieve(id);
  }

  @Patch(':id')
  @RequireScopes('inventory:write')
  @ApiOperation({
    summary: 'Update the planning fields of a balance',
    description:
      'reorder_point, reorder_quantity, safety_stock. A reorder point that moves the balance across it emits inventory.low_stock or inventory.back_in_stock.',
  })
  @ApiResponse({ status: 200, type: BalanceResponse })
  update(@Param('id') id: string, @Body() body: UpdateBalanceDto) {
    return this.balances.update(id, body);
  }
}
