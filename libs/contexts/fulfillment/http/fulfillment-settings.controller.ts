import { Body, Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { FulfillmentSettingsService } from '../application/fulfillment-settings.service';
import { FulfillmentSettingsResponse, UpdateFulfillmentSettingsDto } from './fulfillment-settings.dto';
import { Route } from '#platform/http/route';

@ApiTags('Fulfillment')
@Controller('fulfillment/settings')
export class FulfillmentSettingsController {
  constructor(private readonly settings: FulfillmentSettingsService) {}

  @Route('GET', '', {
    scopes: 'fulfillment:read',
    summary: 'Fulfillment settings',
    description: 'Insurance threshold and package numbering of the entity (per mode).',
    returns: FulfillmentSettingsResponse,
  })
  retrieve() {
    return this.settings.retrieve();
  }

  @Route('PATCH', '', {
    scopes: 'fulfillment:write',
    summary: 'Update fulfillment settings',
    returns: FulfillmentSettingsResponse,
  })
  update(@Body() body: UpdateFulfillmentSettingsDto) {
    return this.settings.update(body);
  }
}
