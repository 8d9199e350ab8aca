import { eventTypes, EventTypeDefinition } from '#platform/events/event-catalog';

/** The event types the migration context publishes (docs/webhooks.md describes them). */
export const MIGRATION_EVENT_TYPES: readonly EventTypeDefinition[] = eventTypes({
  'migration.frozen': 'The entity was frozen for cutover.',
  'migration.unfrozen': 'The entity was unfrozen.',
  'migration.import.started': 'A bulk import started.',
  'migration.import.completed': 'A bulk import finished (possibly with row errors).',
  'migration.import.failed': 'A bulk import failed as a whole.',
});
