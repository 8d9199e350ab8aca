import { DomainError } from '#platform/errors/domain-error';

/** Errors raised by replenishment rules; the platform maps each code to its status and envelope. */
export class ReplenishmentError extends DomainError {}
