import { DynamicModule, Module } from '@nestjs/common';
import { WebhooksWorkerModule } from '../../libs/contexts/webhooks/webhooks-worker.module';
import { AppConfig } from '../../libs/platform/config/app-config';
import { PlatformCoreModule } from '../../libs/platform/platform-core.module';
import { MaintenanceProcessor } from '../../libs/platform/queue/maintenance.processor';
import { ReadinessService } from '../../libs/platform/observability/readiness.service';

/** The worker app: no HTTP routes of the API, only queue processors (maintenance, webhooks) and a health probe. */
@Module({})
export class DispatcherModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: DispatcherModule,
      imports: [PlatformCoreModule.forRoot(config), WebhooksWorkerModule],
      providers: [MaintenanceProcessor, ReadinessService],
    };
  }
}
