import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { QUEUE_NAMES } from '#platform/queue/queues';
import { SalesCoreModule } from './sales-core.module';
import { CollectionsProcessor, CollectionsScheduler } from './worker/collections.processor';

/** Sales' worker side (dispatcher app): the collections sweep and its repeatable job. */
@Module({
  imports: [SalesCoreModule, BullModule.registerQueue({ name: QUEUE_NAMES.sales })],
  providers: [CollectionsProcessor, CollectionsScheduler],
})
export class SalesWorkerModule {}
