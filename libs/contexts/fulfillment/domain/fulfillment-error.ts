import { DomainError, DomainErrorOptions } from '#platform/errors/domain-error';
import { ErrorCode } from '#platform/errors/error-catalog';

/** Errors raised by fulfillment rules; the platform maps each code to its status and envelope. */
export class FulfillmentError extends DomainError {
  constructor(code: ErrorCode, options: DomainErrorOptions = {}) {
    super(code, options);
  }
}
