import { Column, Entity } from 'typeorm';
import { TenantRecord } from '#platform/persistence/columns';

@Entity({ name: 'tags' })
export class TagRecord extends TenantRecord {
  @Column('text') name: string;
  @Column('text', { nullable: true }) color: string | null;
}

/** A tag attached to an account, product or order; deleting the tag cascades here. */
@Entity({ name: 'tag_assignments' })
export class TagAssignmentRecord {
  @Column('uuid', { name: 'tag_id', primary: true }) tagId: string;
  @Column('text', { name: 'resource_type', primary: true }) resourceType: string;
  @Column('uuid', { name: 'resource_id', primary: true }) resourceId: string;
  @Column('uuid', { name: 'entity_id' }) entityId: string;
  @Column('boolean') livemode: boolean;
  @Column('timestamptz', { name: 'created_at', default: () => 'now()' }) createdAt: Date;
}
