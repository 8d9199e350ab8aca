import { readWrite } from '#platform/auth/scopes';

/** The scopes of the webhooks context's routes. */
export const WEBHOOKS_SCOPES: readonly string[] = [
  ...readWrite('webhooks'),
  'events:read',
  'webhooks:manage',
];
