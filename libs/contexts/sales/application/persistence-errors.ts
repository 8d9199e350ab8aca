import { QueryFailedError } from 'typeorm';
import { SalesError } from '../domain/sales-error';

const driverCode = (error: unknown): { code?: string; constraint?: string } =>
  error instanceof QueryFailedError ? (error.driverError as { code?: string; constraint?: string }) : {};

/**
 * Turns the constraint violations the schema enforces into the contract's answers:
 * a duplicate code is 409 with `param: "code"`, deleting a record still referenced is 409.
 */
export function translateConstraintError(error: unknown, resource: string): unknown {
  const { code, constraint } = driverCode(error);
  if (code === '23505' && constraint?.endsWith('_code_unique')) {
    return new SalesError('resource_conflict', {
      param: 'code',
      hint: `Another ${resource} of this entity and mode already uses this code.`,
    });
  }
  // 23503 foreign_key_violation; PostgreSQL 17+ reports ON DELETE RESTRICT as 23001 restrict_violation.
  if (code === '23503' || code === '23001') {
    return new SalesError('resource_conflict', {
      hint: `This ${resource} is still referenced by other records (for example accounts); detach it first.`,
    });
  }
  return error;
}
