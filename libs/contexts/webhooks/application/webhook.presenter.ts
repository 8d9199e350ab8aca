import { OutboxEventRecord } from '../../../platform/events/outbox-event.entity';
import { WebhookDeliveryRecord } from '../infrastructure/webhook-delivery.entity';
import { WebhookEndpointRecord } from '../infrastructure/webhook-endpoint.entity';

export interface WebhookEndpointResource {
  id: string;
  object: 'webhook_endpoint';
  url: string;
  description: string | null;
  enabled_events: string[];
  status: string;
  disabled_reason: string | null;
  livemode: boolean;
  created_at: string;
  updated_at: string;
}

export const toEndpointResource = (e: WebhookEndpointRecord): WebhookEndpointResource => ({
  id: e.id,
  object: 'webhook_endpoint',
  url: e.url,
  description: e.description,
  enabled_events: e.enabledEvents,
  status: e.status,
  disabled_reason: e.disabledReason,
  livemode: e.livemode,
  created_at: e.createdAt.toISOString(),
  updated_at: e.updatedAt.toISOString(),
});

export interface WebhookDeliveryResource {
  id: string;
  object: 'webhook_delivery';
  webhook_id: string;
  event_id: string;
  event_type: string;
  status: string;
  attempt_count: number;
  next_retry_at: string | null;
  delivered_at: string | null;
  failed_at: string | null;
  response_status: number | null;
  response_body: string | null;
  error: string | null;
  livemode: boolean;
  created_at: string;
  updated_at: string;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export const toDeliveryResource = (d: WebhookDeliveryRecord): WebhookDeliveryResource => ({
  id: d.id,
  object: 'webhook_delivery',
  webhook_id: d.endpointId,
  event_id: d.eventId,
  event_type: d.eventType,
  status: d.status,
  attempt_count: d.attemptCount,
  next_retry_at: iso(d.nextRetryAt),
  delivered_at: iso(d.deliveredAt),
  failed_at: iso(d.failedAt),
  response_status: d.responseStatus,
  response_body: d.responseBody,
  error: d.error,
  livemode: d.livemode,
  created_at: d.createdAt.toISOString(),
  updated_at: d.updatedAt.toISOString(),
});

/** The event envelope of SPEC.md, as delivered and as served by the events API. */
export interface EventEnvelope {
  id: string;
  object: 'event';
  type: string;
  created_at: string;
  api_version: string;
  entity_id: string;
  livemode: boolean;
  data: Record<string, unknown>;
  request: { id: string | null };
}

export const toEventEnvelope = (
  e: Pick<
    OutboxEventRecord,
    'id' | 'type' | 'createdAt' | 'apiVersion' | 'entityId' | 'livemode' | 'data' | 'requestId'
  >,
): EventEnvelope => ({
  id: e.id,
  object: 'event',
  type: e.type,
  created_at: e.createdAt.toISOString(),
  api_version: e.apiVersion,
  entity_id: e.entityId,
  livemode: e.livemode,
  data: e.data as Record<string, unknown>,
  request: { id: e.requestId },
});
