import { DomainError } from '#platform/errors/domain-error';

/** Errors raised by the sales context; the platform filter maps the code to status and envelope. */
export class SalesError extends DomainError {}
