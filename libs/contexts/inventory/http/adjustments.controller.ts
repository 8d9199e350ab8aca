import { Body, Controller, Post } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { RequireScopes } from '../../../platform/auth/decorators';
import { AdjustmentsService } from '../application/adjustments.service';
import { AdjustmentResponse, CreateAdjustmentDto } from './adjustment.dto';

@ApiTags('Inventory')
@Controller('inventory/adjustments')
export class AdjustmentsController {
  constructor(private readonly adjustments: AdjustmentsService) {}

  @Post()
  @RequireScopes('inventory:write')
  @ApiOperation({
    summary: 'Adjust stock',
    description:
      'A signed quantity, or counted_quantity (a cycle count). Writes one ledger row, posts INVENTORY_ADJUSTMENT (CYCLE_COUNT for counts): inventory against the inventory adjustment account. 422 insufficient_stock when on_hand would go below zero (unless the entity allows negative stock). Emits inventory.adjusted. Idempotent with Idempotency-Key.',
  })
  @ApiResponse({ status: 201, type: AdjustmentResponse })
  create(@Body() body: CreateAdjustmentDto) {
    return this.adjustments.create(body);
  }
}
