import { readWrite } from '#platform/auth/scopes';

/** The scopes of the migration context's routes. */
export const MIGRATION_SCOPES: readonly string[] = [...readWrite('migrations')];
