import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { RequireScopes } from '../../../platform/auth/decorators';
import { SerialAllocationsService } from '../application/serial-allocations.service';
import { LineSerialsResponse, SerialAllocationDto } from './serial.dto';

@ApiTags('Inventory')
@Controller('orders')
export class OrderSerialsController {
  constructor(private readonly allocations: SerialAllocationsService) {}

  @Post(':id/lines/:line_id/allocate-serials')
  @HttpCode(200)
  @RequireScopes('inventory:write')
  @ApiOperation({
    summary: 'Allocate serials to a sales-order line',
    description:
      "Confirmed sales orders only (422 order_not_confirmed). Each serial of the line's product moves available → allocated (409 invalid_state naming its status otherwise); at most the line quantity (422 quantity_exceeds_remaining). Emits inventory.serial.updated.",
  })
  @ApiResponse({ status: 200, type: LineSerialsResponse })
  allocate(@Param('id') id: string, @Param('line_id') lineId: string, @Body() body: SerialAllocationDto) {
    return this.allocations.allocate(id, lineId, body.serial_numbers);
  }

  @Post(':id/lines/:line_id/deallocate-serials')
  @HttpCode(200)
  @RequireScopes('inventory:write')
  @ApiOperation({
    summary: 'Release serials from a sales-order line',
    description:
      'allocated → available (422 serial_not_allocated for a serial not allocated to the line). Cancelling or voiding the order releases them too.',
  })
  @ApiResponse({ status: 200, type: LineSerialsResponse })
  deallocate(@Param('id') id: string, @Param('line_id') lineId: string, @Body() body: SerialAllocationDto) {
    return this.allocations.deallocate(id, lineId, body.serial_numbers);
  }
}
