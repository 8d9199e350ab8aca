import { readWrite } from '#platform/auth/scopes';

/** The scopes of the inventory context's routes. */
export const INVENTORY_SCOPES: readonly string[] = [...readWrite('inventory', 'locations')];
