/** The webhooks context's public surface: the only file other contexts and apps import. */
export { WebhooksCoreModule } from './webhooks-core.module';
export { WebhooksHttpModule } from './webhooks-http.module';
export { WebhooksWorkerModule } from './webhooks-worker.module';
export { WebhookEndpointsService } from './application/webhook-endpoints.service';
export { WebhookDeliveriesService } from './application/webhook-deliveries.service';
export { EventsService } from './application/events.service';
export * from './webhooks.events';
export * from './webhooks.scopes';
