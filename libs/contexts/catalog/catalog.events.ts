import { eventTypes, EventTypeDefinition } from '#platform/events/event-catalog';

/** The event types the catalog context publishes (docs/webhooks.md describes them). */
export const CATALOG_EVENT_TYPES: readonly EventTypeDefinition[] = eventTypes({
  'product.created': 'A product was created.',
  'product.updated': 'Fields of a product changed (prices, dimensions, flags).',
  'product.deleted': 'A product was archived.',
  'product.restored': 'An archived product was restored.',
  'product.variant.created': 'A variant was added to a product.',
  'product.variant.updated': 'A variant of a product changed.',
  'product.variant.deleted': 'A variant was removed from a product.',
  'product.category.created': 'A product category was created.',
  'product.category.updated': 'A product category changed.',
  'product.category.deleted': 'A product category was deleted.',
  'product.listing.created': 'A product was listed on a sales channel.',
  'product.listing.updated': 'A channel listing changed.',
  'product.listing.deleted': 'A channel listing was removed.',
  'product.listing.sync_requested': 'A channel listing sync was queued.',
  'product.listing.synced': 'A channel listing was pushed to its connector.',
  'product.listing.sync_failed': 'Pushing a channel listing to its connector failed.',
  'product.tag.added': 'A tag was attached to a product.',
  'product.tag.removed': 'A tag was detached from a product.',
  'product.pricing_policy.created': 'A pricing policy was created.',
  'product.pricing_policy.updated': 'A pricing policy changed.',
  'product.pricing_policy.deleted':
    'A pricing policy was deleted (orders that applied it keep their prices).',
  'setting.tag.created': 'A tag was created.',
  'setting.tag.updated': 'A tag changed.',
  'setting.tag.deleted': 'A tag was deleted and detached everywhere.',
});
