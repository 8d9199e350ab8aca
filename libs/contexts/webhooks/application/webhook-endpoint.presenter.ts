import { WebhookEndpointRecord } from '../infrastructure/webhook-endpoint.entity';
import { resourceTimestamps } from '#platform/http/resource-fields';

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
  ...resourceTimestamps(e),
});
