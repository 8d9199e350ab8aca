import { readWrite } from '#platform/auth/scopes';

/** The scopes of the catalog context's routes. */
export const CATALOG_SCOPES: readonly string[] = [...readWrite('products', 'product_categories', 'tags')];
