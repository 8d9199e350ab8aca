import { Injectable } from '@nestjs/common';
import { ListingConnector, ListingConnectors, ListingPushFacts } from '#contexts/catalog';
import { isUuid } from '#platform/persistence/ids';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { IntegrationRepository, IntegrationRunRepository } from '../infrastructure/integration.repository';
import { ConnectorAdapters } from './connector-adapters';
import { ConnectorFailure } from './connector.port';

/**
 * Fills catalog's ListingConnector port: new listings belong to the oldest connected integration
 * of their channel, and a push goes through the listing's integration's adapter. Each attempt
 * is recorded as a `listing_sync` run of the integration (its error when it failed).
 */
@Injectable()
export class IntegrationListingConnector implements ListingConnector {
  constructor(
    registry: ListingConnectors,
    private readonly integrations: IntegrationRepository,
    private readonly runs: IntegrationRunRepository,
    private readonly adapters: ConnectorAdapters,
    private readonly tx: TransactionHost,
  ) {
    // Registered when constructed, before any module starts its queue workers: a listing job the
    // dispatcher picks up at start-up already finds the connector.
    registry.register(this);
  }

  async defaultIntegrationFor(channel: string): Promise<string | null> {
    return (await this.integrations.findConnectedOfType(channel))?.id ?? null;
  }

  async isConnected(integrationId: string): Promise<boolean> {
    if (!isUuid(integrationId)) return false;
    return (await this.integrations.findById(integrationId))?.status === 'connected';
  }

  async push(integrationId: string, listing: ListingPushFacts): Promise<{ remote_id: string }> {
    const integration = await this.integrations.findById(integrationId);
    if (!integration || integration.status !== 'connected')
      throw new Error('The listing’s integration is not connected.');
    const price =
      integration.settings.price_source === 'listing' && listing.listing_price !== null
        ? listing.listing_price
        : listing.list_price;
    try {
      const { adapter, connection } = this.adapters.of(integration);
      const pushed = await adapter.pushListing(connection, {
        listing_id: listing.listing_id,
        remote_id: listing.remote_id,
        sku: listing.sku,
        title: listing.title,
        price,
        currency: listing.currency,
        active: listing.active,
      });
      await this.record(integrationId, listing.listing_id, undefined);
      return pushed;
    } catch (error) {
      const message =
        error instanceof ConnectorFailure
          ? `${error.kind}: ${error.message}`
          : 'The connector failed unexpectedly.';
      await this.record(integrationId, listing.listing_id, message);
      throw new Error(message, { cause: error });
    }
  }

  private async record(integrationId: string, listingId: string, error: string | undefined): Promise<void> {
    await this.tx.run(async () => {
      await this.runs.create({
        integrationId,
        kind: 'listing_sync',
        trigger: 'listing',
        status: error === undefined ? 'succeeded' : 'failed',
        ordersImported: 0,
        ordersSkipped: 0,
        payoutsImported: 0,
        payoutsSkipped: 0,
        listingsSynced: error === undefined ? 1 : 0,
        errors:
          error === undefined
            ? []
            : [{ external_id: listingId, code: 'listing_push_failed', message: error }],
        finishedAt: new Date(),
      });
    });
  }
}
