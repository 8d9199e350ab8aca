import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { QUEUE_NAMES } from '#platform/queue/queues';
import { DeliveryAttemptRepository } from './infrastructure/delivery-attempt.repository';
import { EndpointHealthRepository } from './infrastructure/endpoint-health.repository';
import { OutboxDispatchRepository } from './infrastructure/outbox-dispatch.repository';
import { WebhookSender } from './infrastructure/webhook-sender';
import { WebhooksCoreModule } from './webhooks-core.module';
import { DeliveryAttemptService } from './worker/delivery-attempt.service';
import { DispatcherLoop } from './worker/dispatcher-loop.service';
import { OutboxFanoutService } from './worker/outbox-fanout.service';
import { SystemEvents } from './worker/system-events';
import { WebhookDeliveryProcessor } from './worker/webhook-delivery.processor';
import {
  WebhooksMaintenanceProcessor,
  WebhooksMaintenanceScheduler,
} from './worker/webhooks-maintenance.processor';

/**
 * Webhooks' worker side (dispatcher app): the outbox fan-out loop, signed delivery attempts
 * through the sender, retries, the sweeper, recovery and retention.
 */
@Module({
  imports: [
    WebhooksCoreModule,
    BullModule.registerQueue({ name: QUEUE_NAMES['webhook-deliveries'] }, { name: QUEUE_NAMES.webhooks }),
  ],
  providers: [
    WebhookSender,
    DeliveryAttemptRepository,
    EndpointHealthRepository,
    OutboxDispatchRepository,
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
