import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { QUEUE_NAMES } from '#platform/queue/queues';
import { DemandRefreshModule } from './demand-refresh.module';
import { DemandRefreshProcessor, DemandRefreshSweepScheduler } from './worker/demand-refresh.processor';

/**
 * Replenishment's worker side (dispatcher app): the refresh of the products' demand averages
 * after stock movements, and its sweep. It imports DemandRefreshModule, not the core module
 * (see there why).
 */
@Module({
  imports: [DemandRefreshModule, BullModule.registerQueue({ name: QUEUE_NAMES.replenishment })],
  providers: [DemandRefreshProcessor, DemandRefreshSweepScheduler],
})
export class ReplenishmentWorkerModule {}
