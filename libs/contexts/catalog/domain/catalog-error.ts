import { DomainError, DomainErrorOptions } from '#platform/errors/domain-error';
import { ErrorCode } from '#platform/errors/error-catalog';

/** Errors raised by catalog rules; the platform maps each code to its status and envelope. */
export class CatalogError extends DomainError {
  constructor(code: ErrorCode, options: DomainErrorOptions = {}) {
    super(code, options);
  }
}

/** A reference in a request body (category_id, tag_id, ...) that does not resolve for this entity and mode. */
export const missingReference = (param: string, resource: string, id: string) =>
  new CatalogError('parameter_invalid', {
    param,
    hint: `No ${resource} with id '${id}' exists for this entity and mode.`,
  });
