import { eventTypes, EventTypeDefinition } from '#platform/events/event-catalog';

/** The event types the webhooks context publishes (docs/webhooks.md describes them). */
export const WEBHOOKS_EVENT_TYPES: readonly EventTypeDefinition[] = eventTypes({
  'webhook.test': 'A test event sent on request to one endpoint.',
  'webhook.endpoint.disabled': 'An endpoint was disabled after consecutive permanent failures.',
  'webhook.delivery.exhausted': 'A delivery failed after its last scheduled attempt.',
});
