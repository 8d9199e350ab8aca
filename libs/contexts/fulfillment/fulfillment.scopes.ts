import { readWrite } from '#platform/auth/scopes';

/** The scopes of the fulfillment context's routes. */
export const FULFILLMENT_SCOPES: readonly string[] = [...readWrite('fulfillment', 'returns')];
