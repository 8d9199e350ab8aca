import { PlatformFoundation1763700000000 } from './1763700000000-platform-foundation';
import { Webhooks1764000000000 } from './1764000000000-webhooks';

/** The single timeline of schema migrations, in order. */
export const MIGRATIONS = [PlatformFoundation1763700000000, Webhooks1764000000000];
