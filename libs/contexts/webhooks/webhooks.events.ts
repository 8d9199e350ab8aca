import { eventFamily, EventTypeDefinition } from '#platform/events/event-catalog';

/** The event types the webhooks context publishes (docs/webhooks.md describes them). */
export const WEBHOOKS_EVENT_TYPES: readonly EventTypeDefinition[] = [
  ...eventFamily('webhook', {
    'webhook.test': 'A test event sent on request to one endpoint.',
    'webhook.endpoint.disabled': 'An endpoint was disabled after consecutive permanent failures.',
    'webhook.delivery.exhausted': 'A delivery failed after its last scheduled attempt.',
  }),
];
