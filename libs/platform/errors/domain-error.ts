import { ERROR_CATALOG, ErrorCode } from './error-catalog';

export interface DomainErrorOptions {
  hint?: string;
  param?: string;
  /** Extra fields of the envelope, such as `required` or `existing_id`. */
  details?: Record<string, unknown>;
}

/**
 * Base of every error a context raises. It carries a contract code, never an HTTP status:
 * the exception filter maps the code to the status and envelope in one place.
 */
export class DomainError extends Error {
  readonly code: ErrorCode;
  readonly hint?: string;
  readonly param?: string;
  readonly details?: Record<string, unknown>;
  /** Raised before a handler ran (validation, auth); such responses are never stored for replay. */
  preHandler = false;

  constructor(code: ErrorCode, options: DomainErrorOptions = {}) {
    super(options.hint ?? code);
    this.name = new.target.name;
    this.code = code;
    this.hint = options.hint;
    this.param = options.param;
    this.details = options.details;
  }

  get status(): number {
    return ERROR_CATALOG[this.code].status;
  }

  get type(): string {
    return ERROR_CATALOG[this.code].type;
  }

  asPreHandler(): this {
    this.preHandler = true;
    return this;
  }
}

/** Errors of the shared request pipeline (validation, auth, idempotency, lists). */
export class PlatformError extends DomainError {}

/** The hint of a record that does not resolve for the caller's entity and mode. */
export const noSuchRecord = (resource: string, id: string) =>
  `No ${resource} with id '${id}' exists for this entity and mode.`;

export const notFound = (resource: string, id?: string) =>
  new PlatformError('not_found', { hint: id ? noSuchRecord(resource, id) : `No such ${resource}.` });

/** 400 parameter_invalid naming the field at fault: the one way every context refuses a field's value. */
export const invalidParam = (param: string, hint: string): DomainError =>
  new DomainError('parameter_invalid', { param, hint });
