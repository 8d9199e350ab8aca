import { Body, Controller, Param } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { SerialAllocationsService } from '../application/serial-allocations.service';
import { LineSerialsResponse, SerialAllocationDto } from './serial.dto';
import { Route } from '#platform/http/route';

@ApiTags('Inventory')
@Controller('orders')
export class OrderSerialsController {
  constructor(private readonly allocations: SerialAllocationsService) {}

  @Route('POST', ':id/lines/:line_id/allocate-serials', {
    scopes: 'inventory:write',
    summary: 'Allocate serials to a sales-order line',
    description:
      "Confirmed sales orders only (422 order_not_confirmed). Each serial of the line's product moves available → allocated (409 invalid_state naming its status otherwise); at most the line quantity (422 quantity_exceeds_remaining). Emits inventory.serial.updated.",
    code: 200,
    returns: LineSerialsResponse,
  })
  allocate(@Param('id') id: string, @Param('line_id') lineId: string, @Body() body: SerialAllocationDto) {
    return this.allocations.allocate(id, lineId, body.serial_numbers);
  }

  @Route('POST', ':id/lines/:line_id/deallocate-serials', {
    scopes: 'inventory:write',
    summary: 'Release serials from a sales-order line',
    description:
      'allocated → available (422 serial_not_allocated for a serial not allocated to the line). Cancelling or voiding the order releases them too.',
    code: 200,
    returns: LineSerialsResponse,
  })
  deallocate(@Param('id') id: string, @Param('line_id') lineId: string, @Body() body: SerialAllocationDto) {
    return this.allocations.deallocate(id, lineId, body.serial_numbers);
  }
}
