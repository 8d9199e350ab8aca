/** The migration context's public surface: the only file other contexts and apps import. */
export * from './migration.module';
export * from './migration-worker.module';
