import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { QUEUE_NAMES } from '../../platform/queue/queues';
import { EventsService } from './application/events.service';
import { WebhookEndpointsService } from './application/webhook-endpoints.service';
import { EventsController } from './http/events.controller';
import { WebhookEndpointsController } from './http/webhook-endpoints.controller';
import { DeliveryQueue } from './infrastructure/delivery-queue';
import { TargetResolver } from './infrastructure/target-resolver';
import { WebhookDeliveryRecord } from './infrastructure/webhook-delivery.entity';
import { WebhookDeliveryRepository } from './infrastructure/webhook-delivery.repository';
import { WebhookEndpointRecord } from './infrastructure/webhook-endpoint.entity';
import { WebhookEndpointRepository } from './infrastructure/webhook-endpoint.repository';

const QUEUES = [
  BullModule.registerQueue({ name: QUEUE_NAMES['webhook-deliveries'] }, { name: QUEUE_NAMES.webhooks }),
];

/** Webhooks context, API side: event catalog and events routes, endpoint management, delivery log. */
@Module({
  imports: [TypeOrmModule.forFeature([WebhookEndpointRecord, WebhookDeliveryRecord]), ...QUEUES],
  controllers: [WebhookEndpointsController, EventsController],
  providers: [
    WebhookEndpointRepository,
    WebhookDeliveryRepository,
    TargetResolver,
    DeliveryQueue,
    WebhookEndpointsService,
    EventsService,
  ],
  exports: [WebhookEndpointsService, EventsService],
})
export class WebhooksModule {}
