import { Module } from '@nestjs/common';
import { FulfillmentCoreModule } from './fulfillment-core.module';
import { FulfillmentSettingsController } from './http/fulfillment-settings.controller';
import { PackagesController } from './http/packages.controller';
import { ReturnsController } from './http/returns.controller';

/** Fulfillment's routes. */
@Module({
  imports: [FulfillmentCoreModule],
  controllers: [PackagesController, ReturnsController, FulfillmentSettingsController],
})
export class FulfillmentHttpModule {}
