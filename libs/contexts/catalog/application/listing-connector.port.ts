import { Injectable } from '@nestjs/common';

/** What a push of a listing carries to its connector (money as decimal strings). */
export interface ListingPushFacts {
  listing_id: string;
  remote_id: string | null;
  sku: string;
  title: string;
  /** The listing's own price; null: the product's list price. */
  listing_price: string | null;
  list_price: string;
  currency: string;
  active: boolean;
}

/**
 * The side of channel listings that needs a connector: which integration a new listing belongs
 * to, whether a listing's integration can take a push, and the push itself. The integrations
 * context fills it (ListingConnectors.register) when its module starts; without it no listing
 * has an integration and a sync answers 409 `integration_not_connected`.
 */
export interface ListingConnector {
  /** The connected integration new listings on `channel` belong to, or null when there is none. */
  defaultIntegrationFor(channel: string): Promise<string | null>;
  /** Whether the integration exists in the caller's entity and mode and is connected. */
  isConnected(integrationId: string): Promise<boolean>;
  /** Pushes the listing through the integration's adapter; throws (with a message safe to store) when it fails. */
  push(integrationId: string, listing: ListingPushFacts): Promise<{ remote_id: string }>;
}

/** The registry of the one ListingConnector (integrations registers it at start-up). */
@Injectable()
export class ListingConnectors {
  private connector?: ListingConnector;

  register(connector: ListingConnector): void {
    this.connector = connector;
  }

  get current(): ListingConnector | undefined {
    return this.connector;
  }
}
