/**
 * The catalog of every event type: 118 types in 14 families. The first segment of every type is
 * its family (`<family>.<verb>` or `<family>.<sub-resource>.<verb>`), so `<family>.*` selects
 * exactly the types that start with `<family>.`; `*` selects all.
 */
export interface EventTypeDefinition {
  type: string;
  family: EventFamily;
  description: string;
}

export const EVENT_FAMILIES = [
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
export type EventFamily = (typeof EVENT_FAMILIES)[number];

const family = (name: EventFamily, types: Record<string, string>): EventTypeDefinition[] =>
  Object.entries(types).map(([type, description]) => ({ type, family: name, description }));

export const EVENT_CATALOG: readonly EventTypeDefinition[] = [
  ...family('account', {
    'account.created': 'A customer account was created.',
    'account.updated': 'Fields of an account changed.',
    'account.deleted': 'An account was soft-deleted.',
    'account.merged': 'An account was merged into another; data.object is the surviving account.',
    'account.address.added': 'An address was added to an account.',
    'account.address.updated': 'An address of an account changed.',
    'account.address.removed': 'An address was removed from an account.',
    'account.contact.added': 'A contact was added to an account.',
    'account.contact.updated': 'A contact of an account changed.',
    'account.contact.removed': 'A contact was removed from an account.',
    'account.credit_limit.updated': 'The credit limit of an account changed.',
    'account.terms.updated': 'The payment terms of an account changed.',
  }),
  ...family('product', {
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
  }),
  ...family('order', {
    'order.created': 'A quote, sales order, return, purchase order or invoice document was created.',
    'order.updated': 'Fields or lines of an order changed.',
    'order.confirmed': 'An order was confirmed.',
    'order.cancelled': 'An order was cancelled.',
    'order.voided': 'An order was voided.',
    'order.revised': 'A confirmed order was changed after the customer received it.',
    'order.revision_acknowledged': 'The customer acknowledged a revised order.',
    'order.converted': 'A quote became a sales order, or a sales order an invoice.',
    'order.line.added': 'A line was added to an order.',
    'order.line.updated': 'A line of an order changed.',
    'order.line.removed': 'A line was removed from an order.',
    'order.deleted': 'A draft order was deleted.',
  }),
  ...family('invoice', {
    'invoice.created': 'An invoice was created.',
    'invoice.finalized': 'An invoice was finalized and posted to the ledger.',
    'invoice.updated': 'An invoice changed.',
    'invoice.voided': 'An invoice was voided.',
    'invoice.paid': 'An invoice was paid in full.',
    'invoice.partially_paid': 'A payment covered part of an invoice.',
    'invoice.overdue': 'An invoice passed its due date unpaid.',
    'invoice.late_fee_applied': 'A late-fee invoice was raised for an overdue invoice.',
  }),
  ...family('payment', {
    'payment.succeeded': 'A payment was recorded or approved.',
    'payment.failed': 'A payment was declined.',
    'payment.refunded': 'A payment was refunded in full.',
    'payment.partially_refunded': 'Part of a payment was refunded.',
    'payment.method.created': 'A payment method was added to an account.',
    'payment.method.updated': 'A payment method changed.',
    'payment.method.deleted': 'A payment method was removed.',
    'payment.method.default_changed': 'Another payment method became the account default.',
  }),
  ...family('inventory', {
    'inventory.adjusted': 'On-hand quantity was adjusted.',
    'inventory.received': 'Stock was received into a location.',
    'inventory.transferred': 'Stock moved between locations.',
    'inventory.low_stock': 'On-hand fell to or below the reorder point.',
    'inventory.out_of_stock': 'On-hand reached zero.',
    'inventory.back_in_stock': 'On-hand rose above the reorder point again.',
    'inventory.serial.created': 'A serial number record was created.',
    'inventory.serial.updated': 'A serial number changed status or location.',
  }),
  ...family('purchasing', {
    'purchasing.purchase_order.created': 'A purchase order was created.',
    'purchasing.purchase_order.updated': 'A purchase order changed.',
    'purchasing.purchase_order.confirmed': 'A purchase order was sent to the vendor.',
    'purchasing.purchase_order.received': 'Goods of a purchase order were received.',
    'purchasing.purchase_order.cancelled': 'A purchase order was cancelled.',
    'purchasing.vendor_bill.created': 'A vendor bill was recorded.',
    'purchasing.vendor_bill.paid': 'A vendor bill was paid.',
    'purchasing.vendor_bill.voided': 'A vendor bill was voided.',
  }),
  ...family('fulfillment', {
    'fulfillment.package.created': 'A package was created for an order.',
    'fulfillment.package.updated': 'A package changed.',
    'fulfillment.label.purchased': 'A shipping label was bought for a package.',
    'fulfillment.shipped': 'A package was shipped.',
    'fulfillment.delivered': 'A package was delivered.',
    'fulfillment.package.voided': 'A package was voided.',
  }),
  ...family('return', {
    'return.created': 'A return was opened.',
    'return.received': 'Returned goods were received.',
    'return.refunded': 'A return was refunded.',
    'return.cancelled': 'A return was cancelled.',
  }),
  ...family('accounting', {
    'accounting.journal_entry.created': 'A journal entry was created (draft or pending approval).',
    'accounting.journal_entry.posted': 'A journal entry was posted to the ledger.',
    'accounting.journal_entry.approved': 'A pending journal entry was approved.',
    'accounting.journal_entry.rejected': 'A pending journal entry was rejected.',
    'accounting.journal_entry.reversed': 'A posted journal entry was reversed.',
    'accounting.journal_entry.voided': 'A draft or pending journal entry was voided.',
    'accounting.period.closed': 'An accounting period was closed.',
    'accounting.period.reopened': 'A closed accounting period was reopened.',
    'accounting.ledger_account.created': 'A ledger account was created.',
    'accounting.ledger_account.updated': 'A ledger account changed.',
    'accounting.recurring_journal_entry.ran': 'A recurring template posted a journal entry.',
    'accounting.bank_transaction.matched': 'A bank deposit was matched to invoices.',
  }),
  ...family('asset', {
    'asset.created': 'A fixed asset was registered.',
    'asset.depreciated': 'Depreciation was posted for a fixed asset.',
    'asset.impaired': 'An impairment was recorded for a fixed asset.',
    'asset.recovered': 'An impairment recovery was recorded for a fixed asset.',
    'asset.revalued': 'A fixed asset was revalued.',
  }),
  ...family('setting', {
    'setting.tag.created': 'A tag was created.',
    'setting.tag.updated': 'A tag changed.',
    'setting.tag.deleted': 'A tag was deleted and detached everywhere.',
    'setting.created':
      'A reference record (location, payment term, unit of measure, sales channel, pricing level) was created.',
    'setting.updated': 'A reference record changed.',
    'setting.deleted': 'A reference record was deleted.',
  }),
  ...family('migration', {
    'migration.frozen': 'The entity was frozen for cutover.',
    'migration.unfrozen': 'The entity was unfrozen.',
    'migration.import.started': 'A bulk import started.',
    'migration.import.completed': 'A bulk import finished (possibly with row errors).',
    'migration.import.failed': 'A bulk import failed as a whole.',
  }),
  ...family('webhook', {
    'webhook.test': 'A test event sent on request to one endpoint.',
    'webhook.endpoint.disabled': 'An endpoint was disabled after consecutive permanent failures.',
    'webhook.delivery.exhausted': 'A delivery failed after its last scheduled attempt.',
  }),
];

const KNOWN = new Map(EVENT_CATALOG.map((d) => [d.type, d]));

export const isKnownEventType = (type: string) => KNOWN.has(type);
export const eventTypeDefinition = (type: string) => KNOWN.get(type);
