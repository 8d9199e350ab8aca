import { DomainError, noSuchRecord } from '#platform/errors/domain-error';

/** Errors raised by catalog rules; the platform maps each code to its status and envelope. */
export class CatalogError extends DomainError {}

/** A reference in a request body (category_id, tag_id, ...) that does not resolve for this entity and mode. */
export const missingReference = (param: string, resource: string, id: string) =>
  new CatalogError('parameter_invalid', { param, hint: noSuchRecord(resource, id) });
