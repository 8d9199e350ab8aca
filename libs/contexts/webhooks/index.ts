/** The webhooks context's public surface: the only file other contexts and apps import. */
export { WebhooksCoreModule } from './webhooks-core.module';
export { WebhooksHttpModule } from './webhooks-http.module';
export { WebhooksWorkerModule } from './webhooks-worker.module';
export { WebhookEndpointsService } from './application/webhook-endpoints.service';
export { WebhookDeliveriesService } from './application/webhook-deliveries.service';
export { EventsService } from './application/events.service';
export * from './webhooks.events';
export * from './webhooks.scopes';

// Testing: test support exported on purpose, for test/ and bench/ only (other contexts and apps
// use the public surface above).
export { SIGNING_SECRET_PURPOSE } from './domain/signing-secret';
export { DeliveryAttemptRepository } from './infrastructure/delivery-attempt.repository';
export { DeliveryQueue } from './infrastructure/delivery-queue';
export { OutboxDispatchRepository } from './infrastructure/outbox-dispatch.repository';
export { TargetResolver } from './infrastructure/target-resolver';
export { WebhookEndpointRepository } from './infrastructure/webhook-endpoint.repository';
export { WebhookSender } from './infrastructure/webhook-sender';
export { WebhooksMaintenanceProcessor } from './worker/webhooks-maintenance.processor';
