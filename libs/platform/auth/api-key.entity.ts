import { Column, Entity } from 'typeorm';
import { TenantRecord } from '../persistence/columns';

/** An API key; only the SHA-256 of the secret is stored. */
@Entity({ name: 'api_keys' })
export class ApiKeyRecord extends TenantRecord {
  @Column('text') name: string;
  @Column('text', { name: 'key_hash', unique: true }) keyHash: string;
  @Column('text') redacted: string;
  @Column('text', { array: true }) scopes: string[];
  @Column('text', { name: 'ip_allowlist', array: true, default: () => "'{}'" }) ipAllowlist: string[];
  @Column('integer', { name: 'rate_limit_per_minute', nullable: true }) rateLimitPerMinute: number | null;
  @Column('timestamptz', { name: 'expires_at', nullable: true }) expiresAt: Date | null;
  @Column('timestamptz', { name: 'revoked_at', nullable: true }) revokedAt: Date | null;
  @Column('uuid', { name: 'rotated_from_id', nullable: true }) rotatedFromId: string | null;
  @Column('uuid', { name: 'replaced_by_id', nullable: true }) replacedById: string | null;
  @Column('uuid', { name: 'created_by_key_id', nullable: true }) createdByKeyId: string | null;
}
