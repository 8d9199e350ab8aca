import { toJsonNumber } from '../../../platform/persistence/money';
import type { Channel, ListingStatus, SyncStatus } from '../domain/channel-listing';
import { ChannelListingRecord } from '../infrastructure/channel-listing.entity';
import { ProductCategoryRecord } from '../infrastructure/product-category.entity';

export interface ProductCategoryResource {
  id: string;
  object: 'product_category';
  name: string;
  description: string | null;
  parent_id: string | null;
  metadata: Record<string, string>;
  livemode: boolean;
  created_at: string;
  updated_at: string;
}

export const toCategoryResource = (c: ProductCategoryRecord): ProductCategoryResource => ({
  id: c.id,
  object: 'product_category',
  name: c.name,
  description: c.description,
  parent_id: c.parentId,
  metadata: c.metadata,
  livemode: c.livemode,
  created_at: c.createdAt.toISOString(),
  updated_at: c.updatedAt.toISOString(),
});

export interface ChannelListingResource {
  id: string;
  object: 'channel_listing';
  product_id: string;
  channel: Channel;
  remote_id: string | null;
  price: number | null;
  currency: string;
  status: ListingStatus;
  sync_status: SyncStatus;
  sync_attempts: number;
  last_synced_at: string | null;
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
  remote_id: l.remoteId,
  price: toJsonNumber(l.price),
  currency: l.currency,
  status: l.status,
  sync_status: l.syncStatus,
  sync_attempts: l.syncAttempts,
  last_synced_at: l.lastSyncedAt ? l.lastSyncedAt.toISOString() : null,
  metadata: l.metadata,
  livemode: l.livemode,
  created_at: l.createdAt.toISOString(),
  updated_at: l.updatedAt.toISOString(),
});
