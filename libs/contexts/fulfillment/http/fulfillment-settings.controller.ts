import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { StandardRoutes } from '#platform/http/standard-routes';
import { FulfillmentSettingsService } from '../application/fulfillment-settings.service';
import { FulfillmentSettingsResponse, UpdateFulfillmentSettingsDto } from './fulfillment-settings.dto';

@ApiTags('Fulfillment')
@Controller('fulfillment/settings')
@StandardRoutes({
  service: FulfillmentSettingsService,
  scope: 'fulfillment',
  model: FulfillmentSettingsResponse,
  singleton: {},
  retrieve: [
    'Fulfillment settings',
    { description: 'Insurance threshold and package numbering of the entity (per mode).' },
  ],
  update: [UpdateFulfillmentSettingsDto, 'Update fulfillment settings'],
})
export class FulfillmentSettingsController {}
