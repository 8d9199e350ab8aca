import { DomainError, DomainErrorOptions } from '#platform/errors/domain-error';

type AccountingCode =
  | 'unbalanced_entry'
  | 'period_closed'
  | 'account_not_postable'
  | 'invalid_state'
  | 'parameter_invalid'
  | 'resource_conflict'
  | 'amount_exceeds_limit'
  | 'invoice_not_open'
  | 'unapplied_remainder'
  | 'not_found'
  | 'unsupported_param';

/** Errors of the accounting context; the platform filter maps each code to its status. */
export class AccountingError extends DomainError {
  constructor(code: AccountingCode, options: DomainErrorOptions = {}) {
    super(code, options);
  }
}

export const invalidState = (resource: string, status: string, action: string, allowed: readonly string[]) =>
  new AccountingError('invalid_state', {
    hint: `Cannot ${action} a ${resource} whose status is '${status}'; allowed from: ${allowed.join(', ')}.`,
    details: { status },
  });
