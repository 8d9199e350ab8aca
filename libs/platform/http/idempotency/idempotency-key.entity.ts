import { Column, Entity } from 'typeorm';
import { TenantRow } from '../../persistence/columns';

/** A stored request outcome, replayed for retries with the same Idempotency-Key. */
@Entity({ name: 'idempotency_keys' })
export class IdempotencyKeyRecord extends TenantRow {
  @Column('text') key: string;
  @Column('text') method: string;
  @Column('text') path: string;
  @Column('text', { name: 'body_hash' }) bodyHash: string;
  /** `in_progress` while the first request runs, then `completed`. */
  @Column('text') status: 'in_progress' | 'completed';
  @Column('integer', { name: 'response_status', nullable: true }) responseStatus: number | null;
  @Column('jsonb', { name: 'response_headers', nullable: true }) responseHeaders: Record<
    string,
    string
  > | null;
  /** `json`, not `jsonb`: the stored text keeps the first response's field order for replays. */
  @Column('json', { name: 'response_body', nullable: true }) responseBody: unknown;
  /**
   * The route's secret fields (a plaintext key or signing secret) taken out of `response_body`
   * and sealed with SECRETS_KEY (`enc:v1:...`); null when the response carried none.
   */
  @Column('text', { name: 'response_secrets', nullable: true }) responseSecrets: string | null;
  @Column('timestamptz', { name: 'created_at' }) createdAt: Date;
  @Column('timestamptz', { name: 'expires_at' }) expiresAt: Date;
}
