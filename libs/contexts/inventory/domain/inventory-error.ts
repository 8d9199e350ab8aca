import { DomainError, noSuchRecord } from '#platform/errors/domain-error';

/** Errors raised by inventory rules; the platform maps each code to its status and envelope. */
export class InventoryError extends DomainError {}

/** A reference in a request body (product_id, location_id, ...) that does not resolve for this entity and mode. */
export const missingReference = (param: string, resource: string, id: string) =>
  new InventoryError('parameter_invalid', { param, hint: noSuchRecord(resource, id) });
