import { DomainError } from '#platform/errors/domain-error';

/** Errors raised by integrations rules; the platform maps each code to its status and envelope. */
export class IntegrationsError extends DomainError {}
