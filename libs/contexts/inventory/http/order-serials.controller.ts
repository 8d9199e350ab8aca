import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { StandardRoutes } from '#platform/http/standard-routes';
import { SerialAllocationsService } from '../application/serial-allocations.service';
import { LineSerialsResponse, SerialAllocationDto } from './serial.dto';

@ApiTags('Inventory')
@Controller('orders')
@StandardRoutes({
  service: SerialAllocationsService,
  scope: 'inventory',
  model: LineSerialsResponse,
  path: ':id/lines',
  id: 'line_id',
  actions: {
    allocate: [
      'Allocate serials to a sales-order line',
      {
        path: 'allocate-serials',
        input: SerialAllocationDto,
        description:
          "Confirmed sales orders only (422 order_not_confirmed). Each serial of the line's product moves available → allocated (409 invalid_state naming its status otherwise); at most the line quantity (422 quantity_exceeds_remaining). Emits inventory.serial.updated.",
      },
    ],
    deallocate: [
      'Release serials from a sales-order line',
      {
        path: 'deallocate-serials',
        input: SerialAllocationDto,
        description:
          'allocated → available (422 serial_not_allocated for a serial not allocated to the line). Cancelling or voiding the order releases them too.',
      },
    ],
  },
})
export class OrderSerialsController {}
