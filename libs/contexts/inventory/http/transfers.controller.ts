import { Body, Controller, Post } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { RequireScopes } from '../../../platform/auth/decorators';
import { TransfersService } from '../application/transfers.service';
import { CreateTransferDto, TransferResponse } from './transfer.dto';

@ApiTags('Inventory')
@Controller('inventory/transfers')
export class TransfersController {
  constructor(private readonly transfers: TransfersService) {}

  @Post()
  @RequireScopes('inventory:write')
  @ApiOperation({
    summary: 'Transfer stock between two locations',
    description:
      'transfer_out at the moving-average cost and transfer_in carrying the same value; posts INVENTORY_TRANSFER (inventory to inventory by location, no P&L). Emits inventory.transferred. Idempotent with Idempotency-Key.',
  })
  @ApiResponse({ status: 201, type: TransferResponse })
  create(@Body() body: CreateTransferDto) {
    return this.transfers.create(body);
  }
}
