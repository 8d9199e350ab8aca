import { Column, Entity } from 'typeorm';
import { TenantRow } from '../persistence/columns';

/** A domain event, written in the transaction of the change that caused it. */
@Entity({ name: 'outbox_events' })
export class OutboxEventRecord extends TenantRow {
  @Column('text') type: string;
  @Column('text', { name: 'api_version' }) apiVersion: string;
  @Column('jsonb') data: object;
  @Column('text', { name: 'request_id', nullable: true }) requestId: string | null;
  @Column('timestamptz', { name: 'created_at' }) createdAt: Date;
  /** Set by the dispatcher once the event's deliveries exist. */
  @Column('timestamptz', { name: 'dispatched_at', nullable: true }) dispatchedAt: Date | null;
}
