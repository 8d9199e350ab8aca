import { Body, Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AdjustmentsService } from '../application/adjustments.service';
import { AdjustmentResponse, CreateAdjustmentDto } from './adjustment.dto';
import { Route } from '#platform/http/route';

@ApiTags('Inventory')
@Controller('inventory/adjustments')
export class AdjustmentsController {
  constructor(private readonly adjustments: AdjustmentsService) {}

  @Route('POST', '', {
    scopes: 'inventory:write',
    summary: 'Adjust stock',
    description:
      'A signed quantity, or counted_quantity (a cycle count). Writes one ledger row, posts INVENTORY_ADJUSTMENT (CYCLE_COUNT for counts): inventory against the inventory adjustment account. 422 insufficient_stock when on_hand would go below zero (unless the entity allows negative stock). Emits inventory.adjusted. Idempotent with Idempotency-Key.',
    returns: AdjustmentResponse,
  })
  create(@Body() body: CreateAdjustmentDto) {
    return this.adjustments.create(body);
  }
}
