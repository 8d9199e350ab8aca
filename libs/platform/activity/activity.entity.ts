import { Column, Entity } from 'typeorm';
import { TenantRecord } from '../persistence/columns';

/** One mutation: who (key, mode), what (method, path, resource, status, request id) and when. */
@Entity({ name: 'activity_log' })
export class ActivityRecord extends TenantRecord {
  @Column('uuid', { name: 'api_key_id' }) apiKeyId: string;
  @Column('text') method: string;
  @Column('text') path: string;
  @Column('text', { name: 'resource_type', nullable: true }) resourceType: string | null;
  @Column('text', { name: 'resource_id', nullable: true }) resourceId: string | null;
  @Column('integer') status: number;
  @Column('text', { name: 'request_id', nullable: true }) requestId: string | null;
}
