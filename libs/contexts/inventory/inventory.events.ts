import { eventTypes, EventTypeDefinition } from '#platform/events/event-catalog';

/** The event types the inventory context publishes (docs/webhooks.md describes them). */
export const INVENTORY_EVENT_TYPES: readonly EventTypeDefinition[] = eventTypes({
  'inventory.adjusted': 'On-hand quantity was adjusted.',
  'inventory.received': 'Stock was received into a location.',
  'inventory.transferred': 'Stock moved between locations.',
  'inventory.low_stock': 'On-hand fell to or below the reorder point.',
  'inventory.out_of_stock': 'On-hand reached zero.',
  'inventory.back_in_stock': 'On-hand rose above the reorder point again.',
  'inventory.serial.created': 'A serial number record was created.',
  'inventory.serial.updated': 'A serial number changed status or location.',
});
