import { Module } from '@nestjs/common';
import { BuildsController } from './http/builds.controller';
import { KitComponentsController } from './http/kit-components.controller';
import { ProductVendorsController } from './http/product-vendors.controller';
import { ReorderReportController } from './http/reorder-report.controller';
import { ReplenishmentCoreModule } from './replenishment-core.module';

/** Replenishment's routes. */
@Module({
  imports: [ReplenishmentCoreModule],
  controllers: [ProductVendorsController, KitComponentsController, BuildsController, ReorderReportController],
})
export class ReplenishmentHttpModule {}
