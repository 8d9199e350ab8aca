import { eventTypes, EventTypeDefinition } from '#platform/events/event-catalog';

/** The event types the accounting context publishes (docs/webhooks.md describes them). */
export const ACCOUNTING_EVENT_TYPES: readonly EventTypeDefinition[] = eventTypes({
  'purchasing.vendor_bill.created': 'A vendor bill was recorded.',
  'purchasing.vendor_bill.paid': 'A vendor bill was paid.',
  'purchasing.vendor_bill.voided': 'A vendor bill was voided.',
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
  'asset.created': 'A fixed asset was registered.',
  'asset.depreciated': 'Depreciation was posted for a fixed asset.',
  'asset.impaired': 'An impairment was recorded for a fixed asset.',
  'asset.recovered': 'An impairment recovery was recorded for a fixed asset.',
  'asset.revalued': 'A fixed asset was revalued.',
});
