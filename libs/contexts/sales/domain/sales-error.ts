import { DomainError } from '#platform/errors/domain-error';

/** Errors raised by the sales context; the platform filter maps the code to status and envelope. */
export class SalesError extends DomainError {}

export const invalidParam = (param: string, hint: string) =>
  new SalesError('parameter_invalid', { param, hint });

/** Update bodies mark every field optional, and class-validator lets null through optional fields: refuse it where the field is required. */
export function refuseNulls(input: Record<string, unknown>, nullable: readonly string[]): void {
  for (const [key, value] of Object.entries(input)) {
    if (value === null && !nullable.includes(key)) throw invalidParam(key, `${key} cannot be null.`);
  }
}
