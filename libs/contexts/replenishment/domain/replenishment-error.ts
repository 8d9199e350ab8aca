import { DomainError, DomainErrorOptions } from '#platform/errors/domain-error';
import { ErrorCode } from '#platform/errors/error-catalog';

/** Errors raised by replenishment rules; the platform maps each code to its status and envelope. */
export class ReplenishmentError extends DomainError {
  constructor(code: ErrorCode, options: DomainErrorOptions = {}) {
    super(code, options);
  }
}

export const invalidParam = (param: string, hint: string) =>
  new ReplenishmentError('parameter_invalid', { param, hint });
