import { DynamicModule, Module, ModuleMetadata } from '@nestjs/common';
import { AccountingHttpModule } from '#contexts/accounting';
import { CatalogHttpModule } from '#contexts/catalog';
import { MigrationHttpModule } from '#contexts/migration';
import { ReplenishmentHttpModule } from '#contexts/replenishment';
import { WebhooksHttpModule } from '#contexts/webhooks';
import { IntegrationsHttpModule } from '#contexts/integrations';
import { InventoryHttpModule } from '#contexts/inventory';
import { FulfillmentHttpModule } from '#contexts/fulfillment';
import { SalesHttpModule } from '#contexts/sales';
import { AppConfig } from '#platform/config/app-config';
import { eventCoverage } from '#platform/events/event-coverage';
import { PlatformCoreModule } from '#platform/platform-core.module';
import { PlatformHttpModule } from '#platform/platform-http.module';
// The contexts' event types and scopes, registered with the platform before anything runs.
import '#contexts/vocabulary';

/** The bounded contexts whose routes the API serves. */
export const CONTEXT_MODULES = [
  CatalogHttpModule,
  SalesHttpModule,
  AccountingHttpModule,
  InventoryHttpModule,
  FulfillmentHttpModule,
  WebhooksHttpModule,
  MigrationHttpModule,
  ReplenishmentHttpModule,
  IntegrationsHttpModule,
];

/** The HTTP API: the platform pipeline plus every bounded context's routes. */
@Module({})
export class AppModule {
  /** `extraModules` are added after the product's modules (tests mount test-only routes this way). */
  static forRoot(
    config: AppConfig,
    extraModules: NonNullable<ModuleMetadata['imports']> = [],
  ): DynamicModule {
    const product = [PlatformCoreModule.forRoot(config), PlatformHttpModule, ...CONTEXT_MODULES];
    // A test run's event coverage counts the events of these modules' routes, not of extraModules'.
    eventCoverage.declareProductModules(product);
    return { module: AppModule, imports: [...product, ...extraModules] };
  }
}
