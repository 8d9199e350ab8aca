import { DomainError, DomainErrorOptions } from '../../../platform/errors/domain-error';
import { ErrorCode } from '../../../platform/errors/error-catalog';

/** Errors raised by the sales context; the platform filter maps the code to status and envelope. */
export class SalesError extends DomainError {
  constructor(code: ErrorCode, options: DomainErrorOptions = {}) {
    super(code, options);
  }
}

export const invalidParam = (param: string, hint: string) => new SalesError('parameter_invalid', { param, hint });
