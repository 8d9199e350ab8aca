import { Column, Entity } from 'typeorm';
import { TenantRecord } from '#platform/persistence/columns';

export type EndpointStatus = 'active' | 'disabled';

@Entity({ name: 'webhook_endpoints' })
export class WebhookEndpointRecord extends TenantRecord {
  @Column('text') url: string;
  @Column('text', { nullable: true }) description: string | null;
  @Column('text', { name: 'enabled_events', array: true }) enabledEvents: string[];
  /** The signing secret as shown to the integrator (`whsec_...`); HMAC needs it in clear. */
  @Column('text') secret: string;
  @Column('text') status: EndpointStatus;
  @Column('text', { name: 'disabled_reason', nullable: true }) disabledReason: string | null;
  @Column('integer', { name: 'consecutive_failures' }) consecutiveFailures: number;
  @Column('timestamptz', { name: 'deleted_at', nullable: true }) deletedAt: Date | null;
}
