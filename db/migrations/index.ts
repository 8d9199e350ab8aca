import { PlatformFoundation1763700000000 } from './1763700000000-platform-foundation';
import { CatalogProducts1763800000000 } from './1763800000000-catalog-products';

/** The single timeline of schema migrations, in order. */
export const MIGRATIONS = [PlatformFoundation1763700000000, CatalogProducts1763800000000];
