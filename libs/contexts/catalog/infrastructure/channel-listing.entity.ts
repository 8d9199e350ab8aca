import Decimal from 'decimal.js';
import { Column, Entity } from 'typeorm';
import { MoneyColumn, TenantRecord } from '#platform/persistence/columns';
import type { Channel, ListingStatus, SyncStatus } from '../domain/channel-listing';

@Entity({ name: 'channel_listings' })
export class ChannelListingRecord extends TenantRecord {
  @Column('uuid', { name: 'product_id' }) productId: string;
  @Column('text') channel: Channel;
  /** The integration the listing is pushed through; null when none is connected (or it was disconnected). */
  @Column('uuid', { name: 'integration_id', nullable: true }) integrationId: string | null;
  @Column('text', { name: 'remote_id', nullable: true }) remoteId: string | null;
  @MoneyColumn({ nullable: true }) price: Decimal | null;
  @Column('char', { length: 3 }) currency: string;
  @Column('text') status: ListingStatus;
  @Column('text', { name: 'sync_status' }) syncStatus: SyncStatus;
  @Column('integer', { name: 'sync_attempts' }) syncAttempts: number;
  @Column('timestamptz', { name: 'last_synced_at', nullable: true }) lastSyncedAt: Date | null;
  @Column('text', { name: 'last_sync_error', nullable: true }) lastSyncError: string | null;
  @Column('jsonb') metadata: Record<string, string>;
}
