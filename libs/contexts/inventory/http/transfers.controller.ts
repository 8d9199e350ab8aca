import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { StandardRoutes } from '#platform/http/standard-routes';
import { TransfersService } from '../application/transfers.service';
import { CreateTransferDto, TransferResponse } from './transfer.dto';

@ApiTags('Inventory')
@Controller('inventory/transfers')
@StandardRoutes({
  service: TransfersService,
  scope: 'inventory',
  model: TransferResponse,
  create: [
    CreateTransferDto,
    'Transfer stock between two locations',
    {
      description:
        'transfer_out at the moving-average cost and transfer_in carrying the same value; posts INVENTORY_TRANSFER (inventory to inventory by location, no P&L). Emits inventory.transferred. Idempotent with Idempotency-Key.',
    },
  ],
})
export class TransfersController {}
