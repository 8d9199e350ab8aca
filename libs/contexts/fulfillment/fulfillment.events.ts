import { eventTypes, EventTypeDefinition } from '#platform/events/event-catalog';

/** The event types the fulfillment context publishes (docs/webhooks.md describes them). */
export const FULFILLMENT_EVENT_TYPES: readonly EventTypeDefinition[] = eventTypes({
  'fulfillment.package.created': 'A package was created for an order.',
  'fulfillment.package.updated': 'A package changed.',
  'fulfillment.label.purchased': 'A shipping label was bought for a package.',
  'fulfillment.shipped': 'A package was shipped.',
  'fulfillment.delivered': 'A package was delivered.',
  'fulfillment.package.voided': 'A package was voided.',
  'return.created': 'A return was opened.',
  'return.received': 'Returned goods were received.',
  'return.refunded': 'A return was refunded.',
  'return.cancelled': 'A return was cancelled.',
});
