import { WebhookDeliveryRecord } from '../infrastructure/webhook-delivery.entity';
import { isoOrNull, resourceTimestamps } from '#platform/http/resource-fields';

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

export const toDeliveryResource = (d: WebhookDeliveryRecord): WebhookDeliveryResource => ({
  id: d.id,
  object: 'webhook_delivery',
  webhook_id: d.endpointId,
  event_id: d.eventId,
  event_type: d.eventType,
  status: d.status,
  attempt_count: d.attemptCount,
  next_retry_at: isoOrNull(d.nextRetryAt),
  delivered_at: isoOrNull(d.deliveredAt),
  failed_at: isoOrNull(d.failedAt),
  response_status: d.responseStatus,
  response_body: d.responseBody,
  error: d.error,
  ...resourceTimestamps(d),
});
