import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { QUEUE_NAMES } from '#platform/queue/queues';
import { FulfillmentCoreModule } from './fulfillment-core.module';
import {
  ShipmentNotificationProcessor,
  ShipmentNotificationSweepScheduler,
} from './worker/shipment-notification.processor';

/** Fulfillment's worker side (dispatcher app): delivers queued shipment notifications through the notifier and sweeps for lost jobs. */
@Module({
  imports: [FulfillmentCoreModule, BullModule.registerQueue({ name: QUEUE_NAMES.fulfillment })],
  providers: [ShipmentNotificationProcessor, ShipmentNotificationSweepScheduler],
})
export class FulfillmentWorkerModule {}
