import { DomainError } from '#platform/errors/domain-error';

/** Errors raised by the sales context; the platform filter maps the code to status and envelope. */
export class SalesError extends DomainError {}

export const invalidParam = (param: string, hint: string) =>
  new SalesError('parameter_invalid', { param, hint });
