import type { ApiKeyRecord } from './api-key.entity';

/** A key found by its hash, with its entity's code. */
export interface AuthenticatedKey {
  key: ApiKeyRecord;
  entityCode: string;
}
