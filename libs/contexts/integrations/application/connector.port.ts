import type { AdapterName, IntegrationSettings } from '../domain/connector-types';

/** What an adapter needs to reach one integration's remote side: its settings and opened credentials. */
export interface ConnectorConnection {
  integrationId: string;
  settings: IntegrationSettings;
  credentials: Record<string, string>;
}

/** A channel listing as pushed to the remote side. */
export interface ListingPush {
  listing_id: string;
  remote_id: string | null;
  sku: string;
  title: string;
  price: string;
  currency: string;
  active: boolean;
}

export interface RemoteLine {
  sku: string | null;
  title: string;
  quantity: number;
  /** Unit price as a decimal string. */
  price: string;
}

/** An order as the remote side reports it (money as decimal strings). */
export interface RemoteOrder {
  external_id: string;
  name: string;
  financial_status: string;
  currency: string;
  created_at: string;
  email: string | null;
  customer_name: string;
  lines: RemoteLine[];
  total: string;
}

/** A payout: what the channel paid to the bank after keeping its fees. */
export interface RemotePayout {
  external_id: string;
  date: string;
  currency: string;
  gross: string;
  fees: string;
  net: string;
}

export type ConnectorFailureKind = 'auth_failed' | 'unreachable' | 'rate_limited' | 'rejected';

/** A failure of the remote side, classified; `message` never carries a credential. */
export class ConnectorFailure extends Error {
  constructor(
    readonly kind: ConnectorFailureKind,
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'ConnectorFailure';
  }
}

/**
 * The port every connector adapter implements (sandbox, Shopify). Each method throws a
 * ConnectorFailure when the remote side refuses or cannot be reached.
 */
export interface ConnectorAdapter {
  readonly name: AdapterName;
  /** Checks the credentials with one cheap authenticated read; answers the shop's name. */
  test(connection: ConnectorConnection): Promise<{ shop: string }>;
  /** Creates or updates the listing's product remotely; answers the remote id. */
  pushListing(connection: ConnectorConnection, listing: ListingPush): Promise<{ remote_id: string }>;
  /** Orders created since `since` (all when null), oldest first. */
  fetchOrders(connection: ConnectorConnection, since: string | null): Promise<RemoteOrder[]>;
  /** Paid-out payouts since `since` (all when null), oldest first. */
  fetchPayouts(connection: ConnectorConnection, since: string | null): Promise<RemotePayout[]>;
}

/** Injection token of the adapters list. */
export const CONNECTOR_ADAPTERS = Symbol('CONNECTOR_ADAPTERS');
