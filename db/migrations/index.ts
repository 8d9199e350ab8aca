import { PlatformFoundation1763700000000 } from './1763700000000-platform-foundation';
import { SalesAccountsAndReferenceLists1763850000000 } from './1763850000000-sales-accounts-and-reference-lists';

/** The single timeline of schema migrations, in order. */
export const MIGRATIONS = [PlatformFoundation1763700000000, SalesAccountsAndReferenceLists1763850000000];
