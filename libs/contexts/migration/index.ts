/** The migration context's public surface: the only file other contexts and apps import. */
export { MigrationCoreModule } from './migration-core.module';
export { MigrationHttpModule } from './migration-http.module';
export { MigrationWorkerModule } from './migration-worker.module';
export { FreezeService } from './application/freeze.service';
export { ImportsService } from './application/imports.service';
export { ImportRunner } from './application/import-runner';
export * from './migration.events';
export * from './migration.scopes';

// Testing: test support exported on purpose, for test/ and bench/ only (other contexts and apps
// use the public surface above).
export { ImportBatchRepository } from './infrastructure/import-batch.repository';
export { ImportRepository } from './infrastructure/import.repository';
