import { PlatformFoundation1763700000000 } from './1763700000000-platform-foundation';

/** The single timeline of schema migrations, in order. */
export const MIGRATIONS = [PlatformFoundation1763700000000];
