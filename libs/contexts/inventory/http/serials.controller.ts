import { Controller, Headers, Query } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { ApiResource } from '#platform/http/expand/expand-registry';
import { Route } from '#platform/http/route';
import { isUuid } from '#platform/persistence/ids';
import { StandardRoutes } from '#platform/http/standard-routes';
import { SerialsService } from '../application/serials.service';
import { InventoryError } from '../domain/inventory-error';
import { SerialListQueryDto, SerialPageResponse, SerialResponse, UpdateSerialDto } from './serial.dto';

@ApiTags('Inventory')
@ApiResource('serial_number')
@Controller('inventory/serials')
@StandardRoutes({
  service: SerialsService,
  scope: 'inventory',
  model: SerialResponse,
  retrieve: ['Retrieve a serial number record'],
  update: [
    UpdateSerialDto,
    'Update a serial number record',
    {
      description:
        'Lot, expiry and warranty fields; status moves a returned, damaged or quarantined unit to available, damaged or quarantined (409 invalid_state naming the current status when the state machine forbids it). Emits inventory.serial.updated.',
    },
  ],
})
export class SerialsController {
  constructor(private readonly serials: SerialsService) {}

  @Route('GET', '', {
    scopes: 'inventory:read',
    summary: 'List serial numbers',
    description:
      'Newest first, paged by number: page (>= 1, default 1), per_page (1..250, default 50). Filters product_id, status, location_id (or header X-Location-Id, which wins), q (case-insensitive partial match). Response: object list, data, total, page, per_page, total_pages.',
  })
  @ApiHeader({
    name: 'X-Location-Id',
    required: false,
    description: 'A location id; wins over the location_id query parameter.',
  })
  @ApiOkResponse({ type: SerialPageResponse })
  list(@Query() query: SerialListQueryDto, @Headers('x-location-id') headerLocation: string | undefined) {
    if (headerLocation !== undefined && !isUuid(headerLocation))
      throw new InventoryError('parameter_invalid', {
        param: 'X-Location-Id',
        hint: 'The X-Location-Id header must be a location id (uuid).',
      }).asPreHandler();
    return this.serials.list({
      productId: query.product_id,
      status: query.status,
      locationId: headerLocation ?? query.location_id,
      q: query.q,
      page: query.page ?? 1,
      perPage: query.per_page ?? 50,
    });
  }
}
