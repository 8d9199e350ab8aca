import { Module } from '@nestjs/common';
import { EventsController } from './http/events.controller';
import { WebhookEndpointsController } from './http/webhook-endpoints.controller';
import { WebhooksCoreModule } from './webhooks-core.module';

/** Webhooks' routes: endpoints, their deliveries, the event catalog and the events. */
@Module({
  imports: [WebhooksCoreModule],
  controllers: [WebhookEndpointsController, EventsController],
})
export class WebhooksHttpModule {}
