import { Body, Controller, Get, Patch } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { RequireScopes } from '../../../platform/auth/decorators';
import { FulfillmentSettingsService } from '../application/fulfillment-settings.service';
import { FulfillmentSettingsResponse, UpdateFulfillmentSettingsDto } from './fulfillment-settings.dto';

@ApiTags('Fulfillment')
@Controller('fulfillment/settings')
export class FulfillmentSettingsController {
  constructor(private readonly settings: FulfillmentSettingsService) {}

  @Get()
  @RequireScopes('fulfillment:read')
  @ApiOperation({
    summary: 'Fulfillment settings',
    description: 'Insurance threshold and package numbering of the entity (per mode).',
  })
  @ApiResponse({ status: 200, type: FulfillmentSettingsResponse })
  retrieve() {
    return this.settings.retrieve();
  }

  @Patch()
  @RequireScopes('fulfillment:write')
  @ApiOperation({ summary: 'Update fulfillment settings' })
  @ApiResponse({ status: 200, type: FulfillmentSettingsResponse })
  update(@Body() body: UpdateFulfillmentSettingsDto) {
    return this.settings.update(body);
  }
}
