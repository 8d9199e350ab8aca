/** The accounting context's public surface: the only file other contexts and apps import. */
export * from './accounting.module';
export * from './application/accounting-settings.service';
export * from './application/ledger-posting.service';
export * from './application/inventory-valuation.port';
export * from './domain/source-types';
export * from './application/receivables.port';
