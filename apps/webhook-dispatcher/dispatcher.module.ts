import { DynamicModule, Module } from '@nestjs/common';
import { AccountingWorkerModule } from '../../libs/contexts/accounting';
import { MigrationWorkerModule } from '../../libs/contexts/migration';
import { CatalogWorkerModule } from '../../libs/contexts/catalog';
import { FulfillmentWorkerModule } from '../../libs/contexts/fulfillment';
import { WebhooksWorkerModule } from '../../libs/contexts/webhooks';
import { AppConfig } from '../../libs/platform/config/app-config';
import { PlatformCoreModule } from '../../libs/platform/platform-core.module';
import { MaintenanceProcessor } from '../../libs/platform/queue/maintenance.processor';
import { ReadinessService } from '../../libs/platform/observability/readiness.service';

/** The worker app: no HTTP routes of the API, only queue processors (maintenance, webhook deliveries, bulk imports, recurring journal entries, channel listing sync, shipment notifications) and a health probe. */
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
      ],
      providers: [MaintenanceProcessor, ReadinessService],
    };
  }
}
