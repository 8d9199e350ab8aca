import { deleteRecord, updateRecord } from '#platform/events/record-changes';
import { previousAttributes } from '#platform/events/previous-attributes';
import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, OnModuleInit } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { EventPublisher } from '#platform/events/event-publisher';
import { expandableFields, references, ResourceRegistry } from '#platform/http/expand/expand-registry';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { money } from '#platform/domain/money';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { JobData, QUEUE_NAMES } from '#platform/queue/queues';
import { RequestContext } from '#platform/tenancy/request-context';
import { CatalogError, missingReference } from '../domain/catalog-error';
import {
  assertCanSync,
  assertHasIntegration,
  Channel,
  ListingStatus,
  SYNC_ERROR_MAX,
} from '../domain/channel-listing';
import { AppConfig } from '#platform/config/app-config';
import { ListingConnectors } from './listing-connector.port';
import { ChannelListingRecord } from '../infrastructure/channel-listing.entity';
import { initialMetadata, mergeMetadata } from '#platform/domain/metadata';
import { productTransition } from '../domain/product';
import { ChannelListingRepository } from '../infrastructure/channel-listing.repository';
import { ProductRepository } from '../infrastructure/product.repository';
import { ChannelListingResource, toListingResource } from './channel-listing.presenter';
import { ResourceReads } from '#platform/http/list/resource-reads';

export interface ListingInput {
  product_id: string;
  channel: Channel;
  integration_id?: string | null;
  remote_id?: string | null;
  price?: number | null;
  currency?: string;
  status?: ListingStatus;
  metadata?: Record<string, string | null>;
}

export type ListingChanges = Partial<Omit<ListingInput, 'product_id' | 'channel'>>;

/** How one push attempt of the worker ended. */
export interface SyncOutcome {
  listing?: ChannelListingResource;
  /** The push failed and BullMQ should retry it (the error to rethrow). */
  retry?: Error;
}

export interface SyncAcknowledgment {
  status: 'queued';
  listing_id: string;
}

export const SYNC_JOB = 'sync-channel-listing' as const;

/** The fields expand[] follows on channel_listing (declared when the module loads, for the OpenAPI description). */
const CHANNEL_LISTING_EXPANSIONS = expandableFields('channel_listing', references({ product: 'product' }));

/** Channel listings: a product offered on a sales channel, and pushes to the channel's connector. */
@Injectable()
export class ChannelListingsService
  extends ResourceReads<
    ChannelListingRecord,
    ChannelListingResource,
    ListQueryDto & { product_id?: string; channel?: Channel }
  >
  implements OnModuleInit
{
  constructor(
    private readonly listings: ChannelListingRepository,
    private readonly products: ProductRepository,
    private readonly tx: TransactionHost,
    private readonly events: EventPublisher,
    private readonly resources: ResourceRegistry,
    @InjectQueue(QUEUE_NAMES.catalog) private readonly queue: Queue,
    private readonly connectors: ListingConnectors,
    private readonly config: AppConfig,
  ) {
    super(listings, toListingResource);
  }

  /** Checks an integration_id given for a listing: a connected integration of the caller's entity and mode. */
  private async checkIntegration(integrationId: string): Promise<void> {
    const connector = this.connectors.current;
    if (!connector || !(await connector.isConnected(integrationId)))
      throw new CatalogError('parameter_invalid', {
        param: 'integration_id',
        hint: `No connected integration with id '${integrationId}' exists for this entity and mode.`,
      });
  }

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
      productTransition('edit', product);
      if (await this.listings.findForProductChannel(product.id, input.channel)) {
        throw new CatalogError('resource_conflict', {
          param: 'channel',
          hint: `Product '${product.id}' is already listed on ${input.channel}; update that listing instead.`,
        });
      }
      let integrationId = input.integration_id ?? null;
      if (integrationId !== null) await this.checkIntegration(integrationId);
      else if (input.integration_id === undefined)
        integrationId = (await this.connectors.current?.defaultIntegrationFor(input.channel)) ?? null;
      const listing = await this.listings.create({
        productId: product.id,
        channel: input.channel,
        integrationId,
        lastSyncError: null,
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

  async update(id: string, changes: ListingChanges): Promise<ChannelListingResource> {
    if (changes.integration_id) await this.checkIntegration(changes.integration_id);
    return updateRecord(this.tx, this.events, this.listings, id, {
      present: toListingResource,
      event: 'product.listing.updated',
      apply: (listing) => {
        if (changes.integration_id !== undefined) listing.integrationId = changes.integration_id;
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
      assertHasIntegration(found);
      if (!(await this.connectors.current?.isConnected(found.integrationId!))) {
        throw new CatalogError('integration_not_connected', {
          hint: `The integration of channel listing '${found.id}' is not connected.`,
        });
      }
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
      attempts: this.config.LISTING_SYNC_ATTEMPTS,
      backoff: { type: 'exponential', delay: this.config.LISTING_SYNC_BACKOFF_MS },
      removeOnComplete: 1000,
      removeOnFail: 5000,
    });
    return { status: 'queued', listing_id: listing.id };
  }

  /**
   * The worker's half of a sync: pushes the listing through its integration (outside any
   * transaction), then records the attempt on the listing. A success makes it `synced`
   * (`product.listing.synced`); a failure keeps it `queued` with `last_sync_error` and asks for a
   * retry, and the failure of the `final` attempt makes it `failed` and publishes
   * `product.listing.sync_failed` once. A listing deleted since the request is skipped.
   */
  async runSync(listingId: string, final: boolean): Promise<SyncOutcome> {
    const found = await this.listings.findById(listingId);
    if (!found) return {};
    const product = await this.products.findById(found.productId);
    let failure: Error | undefined;
    let remoteId: string | undefined;
    try {
      const connector = this.connectors.current;
      if (found.integrationId === null || !connector)
        throw new Error('The listing belongs to no connected integration.');
      const pushed = await connector.push(found.integrationId, {
        listing_id: found.id,
        remote_id: found.remoteId,
        sku: product?.sku ?? '',
        title: product?.name ?? '',
        listing_price: found.price === null ? null : found.price.toFixed(2),
        list_price: product ? product.listPrice.toFixed(2) : '0.00',
        currency: found.currency,
        active: found.status === 'active' && product?.status === 'active',
      });
      remoteId = pushed.remote_id;
    } catch (error) {
      failure = error instanceof Error ? error : new Error(String(error));
    }
    const listing = await this.recordAttempt(listingId, failure, remoteId, final);
    return { listing, ...(failure && !final ? { retry: failure } : {}) };
  }

  private async recordAttempt(
    listingId: string,
    failure: Error | undefined,
    remoteId: string | undefined,
    final: boolean,
  ): Promise<ChannelListingResource | undefined> {
    return this.tx.run(async () => {
      if (!(await this.listings.findById(listingId))) return undefined;
      const locked = await this.listings.getForUpdate(listingId);
      const before = toListingResource(locked);
      locked.syncAttempts += 1;
      if (failure === undefined) return this.recordSuccess(locked, before, remoteId);
      locked.lastSyncError = failure.message.slice(0, SYNC_ERROR_MAX);
      const failsNow = final && locked.syncStatus !== 'failed';
      if (final) locked.syncStatus = 'failed';
      const resource = toListingResource(await this.listings.save(locked));
      if (failsNow)
        await this.events.publish('product.listing.sync_failed', resource, {
          sync_status: before.sync_status,
          sync_attempts: before.sync_attempts,
          last_sync_error: before.last_sync_error,
        });
      return resource;
    });
  }

  private async recordSuccess(
    locked: ChannelListingRecord,
    before: ChannelListingResource,
    remoteId: string | undefined,
  ): Promise<ChannelListingResource> {
    locked.lastSyncedAt = new Date();
    locked.syncStatus = 'synced';
    locked.lastSyncError = null;
    if (locked.remoteId === null && remoteId) locked.remoteId = remoteId;
    const resource = toListingResource(await this.listings.save(locked));
    await this.events.publish('product.listing.synced', resource, previousAttributes(before, resource));
    return resource;
  }

  /** Attaches the listings of `channel` that belong to no integration to `integrationId` (a new connection). */
  async attachUnassigned(channel: string, integrationId: string): Promise<number> {
    return this.tx.run(() => this.listings.setIntegration({ channel, integrationId: null }, integrationId));
  }

  /** Detaches every listing of a disconnected integration; the listings and their history stay. */
  async detachIntegration(integrationId: string): Promise<number> {
    return this.tx.run(() => this.listings.setIntegration({ integrationId }, null));
  }
}
