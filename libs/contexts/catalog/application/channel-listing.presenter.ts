import { toJsonNumber } from '#platform/domain/money';
import type { Channel, ListingStatus, SyncStatus } from '../domain/channel-listing';
import { ChannelListingRecord } from '../infrastructure/channel-listing.entity';
import { resourceTimestamps } from '#platform/http/resource-fields';

export interface ChannelListingResource {
  id: string;
  object: 'channel_listing';
  product_id: string;
  channel: Channel;
  integration_id: string | null;
  remote_id: string | null;
  price: number | null;
  currency: string;
  status: ListingStatus;
  sync_status: SyncStatus;
  sync_attempts: number;
  last_synced_at: string | null;
  last_sync_error: string | null;
  metadata: Record<string, string>;
  livemode: boolean;
  created_at: string;
  updated_at: string;
}

export const toListingResource = (l: ChannelListingRecord): ChannelListingResource => ({
  id: l.id,
  object: 'channel_listing',
  product_id: l.productId,
  channel: l.channel,
  integration_id: l.integrationId,
  remote_id: l.remoteId,
  price: toJsonNumber(l.price),
  currency: l.currency,
  status: l.status,
  sync_status: l.syncStatus,
  sync_attempts: l.syncAttempts,
  last_synced_at: l.lastSyncedAt ? l.lastSyncedAt.toISOString() : null,
  last_sync_error: l.lastSyncError,
  metadata: l.metadata,
  ...resourceTimestamps(l),
});
