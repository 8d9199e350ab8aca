import { Column, Entity } from 'typeorm';
import { TenantRecord } from '#platform/persistence/columns';

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed' | 'cancelled';

@Entity({ name: 'webhook_deliveries' })
export class WebhookDeliveryRecord extends TenantRecord {
  @Column('uuid', { name: 'endpoint_id' }) endpointId: string;
  @Column('uuid', { name: 'event_id' }) eventId: string;
  @Column('text', { name: 'event_type' }) eventType: string;
  @Column('text') status: DeliveryStatus;
  @Column('integer', { name: 'attempt_count' }) attemptCount: number;
  /** The attempt number after which no automatic retry follows (a resend allows one); null = the schedule. */
  @Column('integer', { name: 'last_attempt', nullable: true }) lastAttempt: number | null;
  @Column('timestamptz', { name: 'next_retry_at', nullable: true }) nextRetryAt: Date | null;
  @Column('timestamptz', { name: 'claimed_until', nullable: true }) claimedUntil: Date | null;
  @Column('timestamptz', { name: 'delivered_at', nullable: true }) deliveredAt: Date | null;
  @Column('timestamptz', { name: 'failed_at', nullable: true }) failedAt: Date | null;
  @Column('integer', { name: 'response_status', nullable: true }) responseStatus: number | null;
  @Column('text', { name: 'response_body', nullable: true }) responseBody: string | null;
  @Column('text', { nullable: true }) error: string | null;
}
