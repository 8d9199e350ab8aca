import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { QUEUE_NAMES } from '#platform/queue/queues';
import { DeliveryScheduler, WebhookTargets } from './application/delivery-ports';
import { EventsService } from './application/events.service';
import { WebhookDeliveriesService } from './application/webhook-deliveries.service';
import { WebhookEndpointsService } from './application/webhook-endpoints.service';
import { DeliveryQueue } from './infrastructure/delivery-queue';
import { TargetResolver } from './infrastructure/target-resolver';
import { WebhookDeliveryRecord } from './infrastructure/webhook-delivery.entity';
import { WebhookDeliveryRepository } from './infrastructure/webhook-delivery.repository';
import { WebhookEndpointRecord } from './infrastructure/webhook-endpoint.entity';
import { WebhookEndpointRepository } from './infrastructure/webhook-endpoint.repository';

const SERVICES = [WebhookEndpointsService, WebhookDeliveriesService, EventsService];

/**
 * Webhooks core: endpoint management, the delivery log and the events API (the outbox read
 * through the platform's OutboxReader). Exports its application services, and the two ports the
 * worker module's dispatch runs on as well: DeliveryScheduler (the delivery queue) and
 * WebhookTargets (the target resolver).
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([WebhookEndpointRecord, WebhookDeliveryRecord]),
    BullModule.registerQueue({ name: QUEUE_NAMES['webhook-deliveries'] }, { name: QUEUE_NAMES.webhooks }),
  ],
  providers: [
    ...SERVICES,
    WebhookEndpointRepository,
    WebhookDeliveryRepository,
    TargetResolver,
    DeliveryQueue,
    { provide: WebhookTargets, useExisting: TargetResolver },
    { provide: DeliveryScheduler, useExisting: DeliveryQueue },
  ],
  exports: [...SERVICES, WebhookTargets, DeliveryScheduler],
})
export class WebhooksCoreModule {}
