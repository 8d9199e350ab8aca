import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { StandardRoutes } from '#platform/http/standard-routes';
import { InventorySettingsService } from '../application/inventory-settings.service';
import { InventorySettingsResponse, UpdateInventorySettingsDto } from './inventory-settings.dto';

@ApiTags('Inventory')
@Controller('inventory/settings')
@StandardRoutes({
  service: InventorySettingsService,
  scope: 'inventory',
  model: InventorySettingsResponse,
  singleton: {},
  retrieve: ["Retrieve the entity's inventory settings"],
  update: [
    UpdateInventorySettingsDto,
    'Update the inventory settings',
    {
      description:
        'allow_negative_stock (default false) and default_location_id (where confirmed order lines commit stock).',
    },
  ],
})
export class InventorySettingsController {}
