import { Column, Entity } from 'typeorm';
import { TenantRecord } from '#platform/persistence/columns';

/** The freeze state of one entity and mode; one row, created at the first freeze. */
@Entity({ name: 'entity_freezes' })
export class EntityFreezeRecord extends TenantRecord {
  @Column('boolean') frozen: boolean;
  @Column('uuid', { name: 'freeze_token', nullable: true }) freezeToken: string | null;
  @Column('timestamptz', { name: 'frozen_at', nullable: true }) frozenAt: Date | null;
  @Column('uuid', { name: 'frozen_by_key_id', nullable: true }) frozenByKeyId: string | null;
  @Column('text', { nullable: true }) reason: string | null;
  @Column('timestamptz', { name: 'unfrozen_at', nullable: true }) unfrozenAt: Date | null;
}

/** The audit log of freezes and unfreezes. */
@Entity({ name: 'entity_freeze_history' })
export class FreezeHistoryRecord extends TenantRecord {
  @Column('text') action: 'freeze' | 'unfreeze';
  @Column('text', { nullable: true }) reason: string | null;
  @Column('uuid', { name: 'api_key_id', nullable: true }) apiKeyId: string | null;
  @Column('text', { name: 'request_id', nullable: true }) requestId: string | null;
}
