import { CatalogError } from './catalog-error';

export const CHANNELS = ['storefront', 'marketplace1', 'marketplace2'] as const;
export type Channel = (typeof CHANNELS)[number];

export const LISTING_STATUSES = ['active', 'inactive'] as const;
export type ListingStatus = (typeof LISTING_STATUSES)[number];

/**
 * `never_synced` until the first sync request, `queued` while a push waits or retries, `synced`
 * once the connector took it, `failed` once the last retry failed.
 */
export const SYNC_STATUSES = ['never_synced', 'queued', 'synced', 'failed'] as const;
export type SyncStatus = (typeof SYNC_STATUSES)[number];

/** Channels whose connector can take a push today; the marketplaces answer 501. */
export const SYNCABLE_CHANNELS: ReadonlySet<Channel> = new Set<Channel>(['storefront']);

export const REMOTE_ID_MAX = 255;

/** The longest `last_sync_error` kept on a listing. */
export const SYNC_ERROR_MAX = 500;

/** A listing that belongs to no connected integration cannot be pushed: 409 `integration_not_connected`. */
export function assertHasIntegration(listing: {
  id: string;
  channel: Channel;
  integrationId: string | null;
}): void {
  if (listing.integrationId === null) {
    throw new CatalogError('integration_not_connected', {
      hint: `Channel listing '${listing.id}' belongs to no connected ${listing.channel} integration; connect one (POST /integrations) or set the listing's integration_id.`,
    });
  }
}

/** Checks a sync request against the connector and the listing's state, in that order. */
export function assertCanSync(
  listing: { id: string; channel: Channel; status: ListingStatus },
  productStatus: string,
): void {
  if (!SYNCABLE_CHANNELS.has(listing.channel)) {
    throw new CatalogError('connector_not_supported', {
      hint: `The ${listing.channel} connector does not support pushing listings yet; only storefront listings can be synced.`,
    });
  }
  if (listing.status !== 'active') {
    throw new CatalogError('invalid_state', {
      hint: `Channel listing '${listing.id}' is ${listing.status}; only active listings can be synced.`,
    });
  }
  if (productStatus !== 'active') {
    throw new CatalogError('invalid_state', {
      hint: `The listed product is ${productStatus}; restore it before syncing its listing.`,
    });
  }
}
