import { Body, Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { TransfersService } from '../application/transfers.service';
import { CreateTransferDto, TransferResponse } from './transfer.dto';
import { Route } from '#platform/http/route';

@ApiTags('Inventory')
@Controller('inventory/transfers')
export class TransfersController {
  constructor(private readonly transfers: TransfersService) {}

  @Route('POST', '', {
    scopes: 'inventory:write',
    summary: 'Transfer stock between two locations',
    description:
      'transfer_out at the moving-average cost and transfer_in carrying the same value; posts INVENTORY_TRANSFER (inventory to inventory by location, no P&L). Emits inventory.transferred. Idempotent with Idempotency-Key.',
    returns: TransferResponse,
  })
  create(@Body() body: CreateTransferDto) {
    return this.transfers.create(body);
  }
}
