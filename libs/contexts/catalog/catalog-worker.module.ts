import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { QUEUE_NAMES } from '#platform/queue/queues';
import { CatalogCoreModule } from './catalog-core.module';
import { ChannelListingSyncProcessor } from './worker/channel-listing-sync.processor';

/** Catalog's worker side (dispatcher app): the `catalog` queue's processor (channel listing syncs). */
@Module({
  imports: [CatalogCoreModule, BullModule.registerQueue({ name: QUEUE_NAMES.catalog })],
  providers: [ChannelListingSyncProcessor],
})
export class CatalogWorkerModule {}
