import { registerScopes } from '#platform/auth/scopes';
import { registerEventTypes } from '#platform/events/event-catalog';
import { ACCOUNTING_EVENT_TYPES, ACCOUNTING_SCOPES } from '#contexts/accounting';
import { CATALOG_EVENT_TYPES, CATALOG_SCOPES } from '#contexts/catalog';
import { FULFILLMENT_EVENT_TYPES, FULFILLMENT_SCOPES } from '#contexts/fulfillment';
import { INTEGRATIONS_SCOPES } from '#contexts/integrations';
import { INVENTORY_EVENT_TYPES, INVENTORY_SCOPES } from '#contexts/inventory';
import { MIGRATION_EVENT_TYPES, MIGRATION_SCOPES } from '#contexts/migration';
import { SALES_EVENT_TYPES, SALES_SCOPES } from '#contexts/sales';
import { WEBHOOKS_EVENT_TYPES, WEBHOOKS_SCOPES } from '#contexts/webhooks';

/** The event families in the order the catalog (GET /event_types, docs/webhooks.md) presents them. */
export const EVENT_FAMILY_ORDER = [
  'account',
  'product',
  'order',
  'invoice',
  'payment',
  'inventory',
  'purchasing',
  'fulfillment',
  'return',
  'accounting',
  'asset',
  'setting',
  'migration',
  'webhook',
] as const;

/**
 * The business vocabulary of the apps: every context's event types and scopes, registered with
 * the platform when this file is first imported (the apps import it before anything runs). Within
 * a family shared by two contexts, the types keep the order of this list of contexts.
 */
registerEventTypes(EVENT_FAMILY_ORDER, [
  ...CATALOG_EVENT_TYPES,
  ...SALES_EVENT_TYPES,
  ...INVENTORY_EVENT_TYPES,
  ...FULFILLMENT_EVENT_TYPES,
  ...ACCOUNTING_EVENT_TYPES,
  ...MIGRATION_EVENT_TYPES,
  ...WEBHOOKS_EVENT_TYPES,
]);
registerScopes([
  ...SALES_SCOPES,
  ...CATALOG_SCOPES,
  ...INTEGRATIONS_SCOPES,
  ...INVENTORY_SCOPES,
  ...FULFILLMENT_SCOPES,
  ...ACCOUNTING_SCOPES,
  ...MIGRATION_SCOPES,
  ...WEBHOOKS_SCOPES,
]);
