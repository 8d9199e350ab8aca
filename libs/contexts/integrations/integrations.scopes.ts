import { readWrite } from '#platform/auth/scopes';

/** The scopes of the integrations context's routes: connector configuration, imports and runs. */
export const INTEGRATIONS_SCOPES: readonly string[] = [...readWrite('integrations')];
