import { Body, Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { InventorySettingsService } from '../application/inventory-settings.service';
import { InventorySettingsResponse, UpdateInventorySettingsDto } from './inventory-settings.dto';
import { Route } from '#platform/http/route';

@ApiTags('Inventory')
@Controller('inventory/settings')
export class InventorySettingsController {
  constructor(private readonly settings: InventorySettingsService) {}

  @Route('GET', '', {
    scopes: 'inventory:read',
    summary: "Retrieve the entity's inventory settings",
    returns: InventorySettingsResponse,
  })
  retrieve() {
    return this.settings.retrieve();
  }

  @Route('PATCH', '', {
    scopes: 'inventory:write',
    summary: 'Update the inventory settings',
    description:
      'allow_negative_stock (default false) and default_location_id (where confirmed order lines commit stock).',
    returns: InventorySettingsResponse,
  })
  update(@Body() body: UpdateInventorySettingsDto) {
    return this.settings.update(body);
  }
}
