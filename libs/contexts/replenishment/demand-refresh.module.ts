import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { AccountingCoreModule } from '#contexts/accounting';
import { CatalogCoreModule } from '#contexts/catalog';
import { SalesCoreModule } from '#contexts/sales';
import { QUEUE_NAMES } from '#platform/queue/queues';
import { DemandAverageRefresher } from './application/demand-average-refresher.service';
import { DemandRefreshQueue } from './application/demand-refresh-queue';
import { DemandRefreshRequests } from './application/demand-refresh-requests.port';
import { DemandService } from './application/demand.service';
import { DemandRefreshAfterCommit } from './infrastructure/demand-refresh-after-commit';
import { DemandAggregateRepository } from './infrastructure/demand-aggregate.repository';
import { DemandRefreshMarkRepository } from './infrastructure/demand-refresh-mark.repository';
import { LineShipmentRepository } from './infrastructure/line-shipment.repository';
import { DemandWriter } from './infrastructure/demand.writer';

/**
 * The demand figures and the refresh of the products' stored demand averages, on their own:
 * what both the core module and the worker module need. The worker imports this rather than
 * ReplenishmentCoreModule, whose other start-up hooks (the stock-movement observer, reorder
 * points, balance extensions) and services the dispatcher does not use; the worker module
 * registers the kits' components with sales itself.
 * Internal to replenishment (not exported from index.ts).
 */
@Module({
  imports: [
    CatalogCoreModule,
    SalesCoreModule,
    AccountingCoreModule,
    BullModule.registerQueue({ name: QUEUE_NAMES.replenishment }),
  ],
  providers: [
    DemandAggregateRepository,
    LineShipmentRepository,
    DemandRefreshMarkRepository,
    DemandService,
    DemandRefreshQueue,
    DemandAverageRefresher,
    DemandWriter,
    { provide: DemandRefreshRequests, useClass: DemandRefreshAfterCommit },
  ],
  exports: [DemandService, DemandAverageRefresher, DemandWriter, DemandRefreshRequests],
})
export class DemandRefreshModule {}
