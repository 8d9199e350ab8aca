import { readWrite } from '#platform/auth/scopes';

/** The scopes of the accounting context's routes. */
export const ACCOUNTING_SCOPES: readonly string[] = [...readWrite('accounting', 'assets')];
