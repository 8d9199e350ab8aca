/** Entity freeze rules (docs/reference/resources.md, "Cutover freeze"): pure, no I/O. */

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
