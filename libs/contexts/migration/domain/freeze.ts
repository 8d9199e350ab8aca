/** Entity freeze rules (docs/reference/resources.md, "Cutover freeze"): pure, no I/O. */
import { transition, Transitions } from '#platform/domain/state-machine';
import { MigrationError } from './migration-error';

export const FREEZE_TOKEN_HEADER = 'x-freeze-token';
export const MIGRATION_WRITE_SCOPE = 'migrations:write';

export type FreezeVerdict = 'allowed' | 'missing_token' | 'wrong_token' | 'not_migration_caller';

/**
 * Whether a mutation may pass a frozen entity: only a migration caller (a key holding
 * `migrations:write`, or `*`) that sends the current freeze token.
 */
export function judgeFrozenMutation(input: {
  scopes: ReadonlySet<string>;
  headerToken: string | undefined;
  freezeToken: string;
}): FreezeVerdict {
  const migrationCaller = input.scopes.has('*') || input.scopes.has(MIGRATION_WRITE_SCOPE);
  if (!migrationCaller) return 'not_migration_caller';
  if (input.headerToken === undefined || input.headerToken === '') return 'missing_token';
  return input.headerToken.trim().toLowerCase() === input.freezeToken.toLowerCase()
    ? 'allowed'
    : 'wrong_token';
}

export const FROZEN_HINTS: Record<Exclude<FreezeVerdict, 'allowed'>, string> = {
  not_migration_caller:
    'This entity is frozen for cutover: mutations are refused until it is unfrozen. Reads keep working.',
  missing_token:
    'This entity is frozen for cutover: a migration caller must send the freeze token in the X-Freeze-Token header.',
  wrong_token:
    'This entity is frozen for cutover and the X-Freeze-Token header does not match the current freeze token.',
};

/** The freeze life cycle of an entity (per mode): a repeated freeze keeps it frozen (idempotent). */
export type FreezeStatus = 'unfrozen' | 'frozen';
export type FreezeAction = 'freeze' | 'unfreeze';

const FREEZE_TRANSITIONS: Transitions<FreezeStatus, FreezeAction> = {
  unfrozen: { freeze: 'frozen' },
  frozen: { freeze: 'frozen', unfreeze: 'unfrozen' },
};

export const freezeStatusOf = (frozen: boolean): FreezeStatus => (frozen ? 'frozen' : 'unfrozen');

/** The status `action` leads to; 409 `invalid_state` where the table does not allow it (unfreezing an unfrozen entity). */
export function freezeTransition(action: FreezeAction, status: FreezeStatus): FreezeStatus {
  return transition(
    FREEZE_TRANSITIONS,
    status,
    action,
    (current) =>
      new MigrationError('invalid_state', {
        hint: `The entity is not frozen (status: ${current}); there is nothing to ${action}.`,
      }),
  );
}

/** Refuses (through the table) to unfreeze an entity without a frozen freeze row. */
export function assertUnfreezable<R extends { frozen: boolean }>(row: R | null): asserts row is R {
  freezeTransition('unfreeze', freezeStatusOf(row?.frozen ?? false));
}
