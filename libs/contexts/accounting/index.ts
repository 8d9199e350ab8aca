/** The accounting context's public surface: the only file other contexts and apps import. */
export { AccountingCoreModule } from './accounting-core.module';
export { AccountingHttpModule } from './accounting-http.module';
export { AccountingWorkerModule } from './accounting-worker.module';
export * from './application/accounting-settings.service';
export * from './application/ledger-posting.service';
export * from './application/inventory-valuation.port';
export * from './domain/source-types';
export { businessDay } from './domain/calendar';
export * from './application/receivables.port';
export * from './accounting.events';
export * from './accounting.scopes';
