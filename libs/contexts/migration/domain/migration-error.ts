import { DomainError } from '#platform/errors/domain-error';

/** Errors of the migration context (entity freeze, bulk imports). */
export class MigrationError extends DomainError {}
