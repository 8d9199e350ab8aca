import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CatalogCoreModule } from '#contexts/catalog';
import { SalesCoreModule } from '#contexts/sales';
import { QUEUE_NAMES } from '#platform/queue/queues';
import { KitComponentsService } from './application/kit-components.service';
import { DemandRefreshModule } from './demand-refresh.module';
import { KitComponentRecord } from './infrastructure/kit-component.entity';
import { KitComponentRepository } from './infrastructure/kit-component.repository';
import { DemandRefreshProcessor, DemandRefreshSweepScheduler } from './worker/demand-refresh.processor';

/**
 * Replenishment's worker side (dispatcher app): the refresh of the products' demand averages
 * after stock movements, and its sweep; and the kits' components, which sales asks for when an
 * imported order has a kit line (as it does for POST /v1/orders). It imports DemandRefreshModule,
 * not the core module (see there why).
 */
@Module({
  imports: [
    DemandRefreshModule,
    CatalogCoreModule,
    SalesCoreModule,
    TypeOrmModule.forFeature([KitComponentRecord]),
    BullModule.registerQueue({ name: QUEUE_NAMES.replenishment }),
  ],
  providers: [
    DemandRefreshProcessor,
    DemandRefreshSweepScheduler,
    KitComponentRepository,
    KitComponentsService,
  ],
})
export class ReplenishmentWorkerModule {}
