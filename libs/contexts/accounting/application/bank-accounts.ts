import { EntityProfiles } from '#platform/tenancy/entity-profiles';
import { AccountingError } from '../domain/accounting-error';
import { LedgerAccountRecord } from '../infrastructure/accounting.entities';
import { LedgerAccountRepository } from '../infrastructure/ledger-account.repository';

/**
 * A bank account is an active, postable asset account flagged `is_bank` or holding the `cash` control role.
 * Anything else named as one is 400 parameter_invalid on `param`.
 */
export async function requireBankAccount(
  accounts: LedgerAccountRepository,
  id: string,
  param: string,
): Promise<LedgerAccountRecord> {
  const account = await accounts.findAccount(id);
  if (!account)
    throw new AccountingError('parameter_invalid', {
      param,
      hint: `No ledger account with id '${id}' exists for this entity and mode.`,
    });
  const isBank = account.type === 'asset' && (account.isBank || account.controlRole === 'cash');
  if (!isBank || !account.postable || !account.active) {
    throw new AccountingError('parameter_invalid', {
      param,
      hint: `Ledger account ${account.code} (${account.name}) is not an active bank account (an asset account with is_bank or the cash control role).`,
    });
  }
  return account;
}

/** The entity's base currency, the default currency of bank transactions and bills. */
export async function baseCurrency(profiles: EntityProfiles): Promise<string> {
  return (await profiles.current())?.baseCurrency ?? 'USD';
}
