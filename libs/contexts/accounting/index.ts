/** The accounting context's public surface: the only file other contexts and apps import. */
export { AccountingCoreModule } from './accounting-core.module';
export { AccountingHttpModule } from './accounting-http.module';
export { AccountingWorkerModule } from './accounting-worker.module';
export * from './application/accounting-settings.service';
export * from './application/ledger-posting.service';
export * from './application/posting-batches.port';
export * from './application/inventory-valuation.port';
export * from './domain/source-types';
export { businessDay, latestBusinessDay } from './domain/calendar';
export * from './application/receivables.port';
export * from './accounting.events';
export * from './accounting.scopes';

// Testing: test support exported on purpose, for test/ and bench/ only (other contexts and apps
// use the public surface above).
export { RecurringJournalEntriesService } from './application/recurring-journal-entries.service';
export { JournalEntryRecord, JournalLineRecord } from './infrastructure/accounting.entities';
export { AccountingSettingsRepository } from './infrastructure/accounting-settings.repository';
export { JournalEntryRepository } from './infrastructure/journal-entry.repository';
export { JournalEntryWriter } from './infrastructure/journal-entry.writer';
export type { EntryToWrite } from './infrastructure/journal-entry.writer';
export { JournalLineRepository } from './infrastructure/journal-line.repository';
export { RecurringTemplateRepository } from './infrastructure/recurring-template.repository';
