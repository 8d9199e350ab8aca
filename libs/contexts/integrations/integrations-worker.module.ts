import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { QUEUE_NAMES } from '#platform/queue/queues';
import { IntegrationsCoreModule } from './integrations-core.module';
import { OrderImportProcessor, OrderImportScheduler } from './worker/order-import.processor';

/**
 * Integrations' worker side (dispatcher app): the scheduled order and payout pull. Listing
 * pushes run on catalog's queue, through the listing connector this context's core registers.
 */
@Module({
  imports: [IntegrationsCoreModule, BullModule.registerQueue({ name: QUEUE_NAMES.integrations })],
  providers: [OrderImportProcessor, OrderImportScheduler],
})
export class IntegrationsWorkerModule {}
