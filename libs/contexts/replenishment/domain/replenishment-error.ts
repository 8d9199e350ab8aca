import { DomainError } from '#platform/errors/domain-error';

/** Errors raised by replenishment rules; the platform maps each code to its status and envelope. */
export class ReplenishmentError extends DomainError {}

export const invalidParam = (param: string, hint: string) =>
  new ReplenishmentError('parameter_invalid', { param, hint });
