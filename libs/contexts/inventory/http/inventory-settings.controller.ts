import { Body, Controller, Get, Patch } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { RequireScopes } from '../../../platform/auth/decorators';
import { InventorySettingsService } from '../application/inventory-settings.service';
import { InventorySettingsResponse, UpdateInventorySettingsDto } from './inventory-settings.dto';

@ApiTags('Inventory')
@Controller('inventory/settings')
export class InventorySettingsController {
  constructor(private readonly settings: InventorySettingsService) {}

  @Get()
  @RequireScopes('inventory:read')
  @ApiOperation({ summary: "Retrieve the entity's inventory settings" })
  @ApiResponse({ status: 200, type: InventorySettingsResponse })
  retrieve() {
    return this.settings.retrieve();
  }

  @Patch()
  @RequireScopes('inventory:write')
  @ApiOperation({
    summary: 'Update the inventory settings',
    description:
      'allow_negative_stock (default false) and default_location_id (where confirmed order lines commit stock).',
  })
  @ApiResponse({ status: 200, type: InventorySettingsResponse })
  update(@Body() body: UpdateInventorySettingsDto) {
    return this.settings.update(body);
  }
}
