import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { StandardRoutes } from '#platform/http/standard-routes';
import { AdjustmentsService } from '../application/adjustments.service';
import { AdjustmentResponse, CreateAdjustmentDto } from './adjustment.dto';

@ApiTags('Inventory')
@Controller('inventory/adjustments')
@StandardRoutes({
  service: AdjustmentsService,
  scope: 'inventory',
  model: AdjustmentResponse,
  create: [
    CreateAdjustmentDto,
    'Adjust stock',
    {
      description:
        'A signed quantity, or counted_quantity (a cycle count). Writes one ledger row, posts INVENTORY_ADJUSTMENT (CYCLE_COUNT for counts): inventory against the inventory adjustment account. 422 insufficient_stock when on_hand would go below zero (unless the entity allows negative stock). Emits inventory.adjusted. Idempotent with Idempotency-Key.',
    },
  ],
})
export class AdjustmentsController {}
