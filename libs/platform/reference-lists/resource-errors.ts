import { QueryFailedError } from 'typeorm';
import { DomainError, invalidParam } from '../errors/domain-error';

/** Errors raised by the defined-resource engine; the platform filter maps the code to status and envelope. */
export class ResourceError extends DomainError {}

/** Update bodies mark every field optional, and class-validator lets null through optional fields: refuse it where the field is required. */
export function refuseNulls(input: Record<string, unknown>, nullable: readonly string[]): void {
  for (const [key, value] of Object.entries(input)) {
    if (value === null && !nullable.includes(key)) throw invalidParam(key, `${key} cannot be null.`);
  }
}

const driverCode = (error: unknown): { code?: string; constraint?: string } =>
  error instanceof QueryFailedError ? (error.driverError as { code?: string; constraint?: string }) : {};

/**
 * Turns the constraint violations the schema enforces into the contract's answers:
 * a duplicate code is 409 with `param: "code"`, deleting a record still referenced is 409.
 */
export function translateConstraintError(error: unknown, resource: string): unknown {
  const { code, constraint } = driverCode(error);
  if (code === '23505' && constraint?.endsWith('_code_unique')) {
    return new ResourceError('resource_conflict', {
      param: 'code',
      hint: `Another ${resource} of this entity and mode already uses this code.`,
    });
  }
  // 23503 foreign_key_violation; PostgreSQL 17+ reports ON DELETE RESTRICT as 23001 restrict_violation.
  if (code === '23503' || code === '23001') {
    return new ResourceError('resource_conflict', {
      hint: `This ${resource} is still referenced by other records (for example accounts); detach it first.`,
    });
  }
  return error;
}
