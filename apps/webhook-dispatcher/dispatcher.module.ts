import { DynamicModule, Module } from '@nestjs/common';
import { AccountingWorkerModule } from '#contexts/accounting';
import { MigrationWorkerModule } from '#contexts/migration';
import { CatalogWorkerModule } from '#contexts/catalog';
import { FulfillmentWorkerModule } from '#contexts/fulfillment';
import { SalesWorkerModule } from '#contexts/sales';
import { ReplenishmentWorkerModule } from '#contexts/replenishment';
import { IntegrationsWorkerModule } from '#contexts/integrations';
import { WebhooksWorkerModule } from '#contexts/webhooks';
import { AppConfig } from '#platform/config/app-config';
import { PlatformCoreModule } from '#platform/platform-core.module';
import { MaintenanceProcessor } from '#platform/queue/maintenance.processor';
import { ReadinessService } from '#platform/observability/readiness.service';
// The contexts' event types and scopes, registered with the platform before anything runs.
import '#contexts/vocabulary';

/** The worker app: no HTTP routes of the API, only queue processors (maintenance, webhook deliveries, bulk imports, recurring journal entries, channel listing sync, shipment notifications, integration imports, demand average refreshes) and a health probe. */
@Module({})
export class DispatcherModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: DispatcherModule,
      imports: [
        PlatformCoreModule.forRoot(config),
        WebhooksWorkerModule,
        MigrationWorkerModule,
        AccountingWorkerModule,
        CatalogWorkerModule,
        FulfillmentWorkerModule,
        SalesWorkerModule,
        IntegrationsWorkerModule,
        ReplenishmentWorkerModule,
      ],
      providers: [MaintenanceProcessor, ReadinessService],
    };
  }
}
