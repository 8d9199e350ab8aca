import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { QUEUE_NAMES } from '../../platform/queue/queues';
import { DeliveryQueue } from './infrastructure/delivery-queue';
import { TargetResolver } from './infrastructure/target-resolver';
import { WebhookDeliveryRecord } from './infrastructure/webhook-delivery.entity';
import { WebhookEndpointRecord } from './infrastructure/webhook-endpoint.entity';
import { WebhookSender } from './infrastructure/webhook-sender';
import { DeliveryAttemptService } from './worker/delivery-attempt.service';
import { DispatcherLoop } from './worker/dispatcher-loop.service';
import { OutboxFanoutService } from './worker/outbox-fanout.service';
import { SystemEvents } from './worker/system-events';
import { WebhookDeliveryProcessor } from './worker/webhook-delivery.processor';
import {
  WebhooksMaintenanceProcessor,
  WebhooksMaintenanceScheduler,
} from './worker/webhooks-maintenance.processor';

/** Webhooks context, dispatcher side: outbox fan-out, signed delivery attempts, retries, sweeper, recovery, retention. */
@Module({
  imports: [
    TypeOrmModule.forFeature([WebhookEndpointRecord, WebhookDeliveryRecord]),
    BullModule.registerQueue({ name: QUEUE_NAMES['webhook-deliveries'] }, { name: QUEUE_NAMES.webhooks }),
  ],
  providers: [
    TargetResolver,
    DeliveryQueue,
    WebhookSender,
    SystemEvents,
    OutboxFanoutService,
    DeliveryAttemptService,
    DispatcherLoop,
    WebhookDeliveryProcessor,
    WebhooksMaintenanceProcessor,
    WebhooksMaintenanceScheduler,
  ],
  exports: [DispatcherLoop, OutboxFanoutService, WebhooksMaintenanceProcessor],
})
export class WebhooksWorkerModule {}
