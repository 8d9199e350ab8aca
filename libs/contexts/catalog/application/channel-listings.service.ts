import { deleteRecord, updateRecord } from '#platform/events/record-changes';
import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, OnModuleInit } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { EventPublisher } from '#platform/events/event-publisher';
import { expandableFields, references, ResourceRegistry } from '#platform/http/expand/expand-registry';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { listEnvelope, ListPage } from '#platform/http/list/paginate';
import { money } from '#platform/persistence/money';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { JobData, QUEUE_NAMES } from '#platform/queue/queues';
import { RequestContext } from '#platform/tenancy/request-context';
import { CatalogError, missingReference } from '../domain/catalog-error';
import { assertCanSync, Channel, ListingStatus } from '../domain/channel-listing';
import { initialMetadata, mergeMetadata } from '../domain/metadata';
import { assertProductEditable } from '../domain/product';
import { ChannelListingRepository } from '../infrastructure/channel-listing.repository';
import { ProductRepository } from '../infrastructure/product.repository';
import { ChannelListingResource, toListingResource } from './channel-listing.presenter';

export interface ListingInput {
  product_id: string;
  channel: Channel;
  remote_id?: string | null;
  price?: number | null;
  currency?: string;
  status?: ListingStatus;
  metadata?: Record<string, string | null>;
}

export type ListingChanges = Partial<Omit<ListingInput, 'product_id' | 'channel'>>;

export interface SyncAcknowledgment {
  status: 'queued';
  listing_id: string;
}

export const SYNC_JOB = 'sync-channel-listing' as const;

/** The fields expand[] follows on channel_listing (declared when the module loads, for the OpenAPI description). */
const CHANNEL_LISTING_EXPANSIONS = expandableFields('channel_listing', references({ product: 'product' }));

/** Channel listings: a product offered on a sales channel, and pushes to the channel's connector. */
@Injectable()
export class ChannelListingsService implements OnModuleInit {
  constructor(
    private readonly listings: ChannelListingRepository,
    private readonly products: ProductRepository,
    private readonly tx: TransactionHost,
    private readonly events: EventPublisher,
    private readonly resources: ResourceRegistry,
    @InjectQueue(QUEUE_NAMES.catalog) private readonly queue: Queue,
  ) {}

  onModuleInit(): void {
    this.resources.registerRecords(
      'channel_listing',
      this.listings,
      toListingResource,
      CHANNEL_LISTING_EXPANSIONS,
    );
  }

  async create(input: ListingInput): Promise<ChannelListingResource> {
    return this.tx.run(async () => {
      const product = await this.products.findById(input.product_id);
      if (!product) throw missingReference('product_id', 'product', input.product_id);
      assertProductEditable(product);
      if (await this.listings.findForProductChannel(product.id, input.channel)) {
        throw new CatalogError('resource_conflict', {
          param: 'channel',
          hint: `Product '${product.id}' is already listed on ${input.channel}; update that listing instead.`,
        });
      }
      const listing = await this.listings.create({
        productId: product.id,
        channel: input.channel,
        remoteId: input.remote_id ?? null,
        price: input.price === null || input.price === undefined ? null : money(input.price),
        currency: input.currency ?? product.currency,
        status: input.status ?? 'active',
        syncStatus: 'never_synced',
        syncAttempts: 0,
        lastSyncedAt: null,
        metadata: initialMetadata(input.metadata),
      });
      const resource = toListingResource(listing);
      await this.events.publish('product.listing.created', resource);
      return resource;
    });
  }

  async list(
    query: ListQueryDto & { product_id?: string; channel?: Channel },
    url: string,
  ): Promise<ListPage<ChannelListingResource>> {
    const page = await this.listings.page(query, { url }, (qb) => {
      if (query.product_id !== undefined)
        qb.andWhere('r.product_id = :productId', { productId: query.product_id });
      if (query.channel !== undefined) qb.andWhere('r.channel = :channel', { channel: query.channel });
    });
    return listEnvelope(page.rows.map(toListingResource), page, url);
  }

  async retrieve(id: string): Promise<ChannelListingResource> {
    return toListingResource(await this.listings.getById(id));
  }

  async update(id: string, changes: ListingChanges): Promise<ChannelListingResource> {
    return updateRecord(this.tx, this.events, this.listings, id, {
      present: toListingResource,
      event: 'product.listing.updated',
      apply: (listing) => {
        if (changes.remote_id !== undefined) listing.remoteId = changes.remote_id;
        if (changes.price !== undefined) listing.price = changes.price === null ? null : money(changes.price);
        if (changes.currency !== undefined) listing.currency = changes.currency;
        if (changes.status !== undefined) listing.status = changes.status;
        if (changes.metadata !== undefined)
          listing.metadata = mergeMetadata(listing.metadata, changes.metadata);
      },
    });
  }

  /** Permanent: the listing is removed (the remote offer is not touched). */
  async delete(id: string): Promise<{ id: string; object: 'channel_listing'; deleted: true }> {
    return deleteRecord(this.tx, this.events, this.listings, id, {
      present: toListingResource,
      event: 'product.listing.deleted',
      object: 'channel_listing',
    });
  }

  /**
   * Queues a push of the listing to its connector (storefront only; the marketplaces answer
   * 501). The listing becomes `queued` and the job is added once the change is committed.
   */
  async requestSync(id: string): Promise<SyncAcknowledgment> {
    const caller = RequestContext.caller();
    const listing = await this.tx.run(async () => {
      const found = await this.listings.getForUpdate(id);
      const product = await this.products.getById(found.productId);
      assertCanSync(found, product.status);
      const before = toListingResource(found);
      found.syncStatus = 'queued';
      const resource = toListingResource(await this.listings.save(found));
      await this.events.publish('product.listing.sync_requested', resource, {
        sync_status: before.sync_status,
      });
      return found;
    });
    const data: JobData<'catalog', typeof SYNC_JOB> = {
      entity_id: caller.entityId,
      entity_code: caller.entityCode,
      livemode: caller.livemode,
      api_key_id: caller.apiKeyId,
      listing_id: listing.id,
    };
    await this.queue.add(SYNC_JOB, data, {
      attempts: 5,
      backoff: { type: 'exponential', delay: 1000 },
      removeOnComplete: 1000,
      removeOnFail: 5000,
    });
    return { status: 'queued', listing_id: listing.id };
  }

  /**
   * The worker's half of a sync: records the attempt on the listing (count, time, status).
   * A listing deleted since the request is skipped.
   */
  async recordSyncAttempt(listingId: string): Promise<ChannelListingResource | undefined> {
    return this.tx.run(async () => {
      const listing = await this.listings.findById(listingId);
      if (!listing) return undefined;
      const locked = await this.listings.getForUpdate(listing.id);
      const before = toListingResource(locked);
      locked.syncAttempts += 1;
      locked.lastSyncedAt = new Date();
      locked.syncStatus = 'synced';
      const resource = toListingResource(await this.listings.save(locked));
      await this.events.publish('product.listing.synced', resource, {
        sync_status: before.sync_status,
        sync_attempts: before.sync_attempts,
        last_synced_at: before.last_synced_at,
      });
      return resource;
    });
  }
}
