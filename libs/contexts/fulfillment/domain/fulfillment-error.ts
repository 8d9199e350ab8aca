import { DomainError } from '#platform/errors/domain-error';

/** Errors raised by fulfillment rules; the platform maps each code to its status and envelope. */
export class FulfillmentError extends DomainError {}
