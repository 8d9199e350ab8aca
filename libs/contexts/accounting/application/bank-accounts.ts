import { EntityProfiles } from '#platform/tenancy/entity-profiles';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { RequestContext } from '#platform/tenancy/request-context';
import { AccountingError } from '../domain/accounting-error';
import { LedgerAccountRecord } from '../infrastructure/accounting.entities';

/**
 * A bank account is an active, postable asset account flagged `is_bank` or holding the `cash` control role.
 * Anything else named as one is 400 parameter_invalid on `param`.
 */
export async function requireBankAccount(
  tx: TransactionHost,
  id: string,
  param: string,
): Promise<LedgerAccountRecord> {
  const { entityId, livemode } = RequestContext.caller();
  const account = await tx.manager
    .getRepository(LedgerAccountRecord)
    .findOne({ where: { id, entityId, livemode } });
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
