import { DynamicModule, Module, ModuleMetadata } from '@nestjs/common';
import { AccountingModule } from '../../libs/contexts/accounting';
import { CatalogModule } from '../../libs/contexts/catalog';
import { MigrationModule } from '../../libs/contexts/migration';
import { ReplenishmentModule } from '../../libs/contexts/replenishment';
import { WebhooksModule } from '../../libs/contexts/webhooks';
import { InventoryHttpModule } from '../../libs/contexts/inventory';
import { FulfillmentHttpModule } from '../../libs/contexts/fulfillment';
import { SalesModule } from '../../libs/contexts/sales';
import { AppConfig } from '../../libs/platform/config/app-config';
import { PlatformCoreModule } from '../../libs/platform/platform-core.module';
import { PlatformHttpModule } from '../../libs/platform/platform-http.module';

/** The bounded contexts whose routes the API serves. */
export const CONTEXT_MODULES = [
  CatalogModule,
  SalesModule,
  AccountingModule,
  InventoryHttpModule,
  FulfillmentHttpModule,
  WebhooksModule,
  MigrationModule,
  ReplenishmentModule,
];

/** The HTTP API: the platform pipeline plus every bounded context's routes. */
@Module({})
export class AppModule {
  /** `extraModules` are added after the product's modules (tests mount test-only routes this way). */
  static forRoot(
    config: AppConfig,
    extraModules: NonNullable<ModuleMetadata['imports']> = [],
  ): DynamicModule {
    return {
      module: AppModule,
      imports: [PlatformCoreModule.forRoot(config), PlatformHttpModule, ...CONTEXT_MODULES, ...extraModules],
    };
  }
}
