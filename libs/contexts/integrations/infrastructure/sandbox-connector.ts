import { createHash } from 'node:crypto';
import {
  ConnectorAdapter,
  ConnectorConnection,
  ConnectorFailure,
  ListingPush,
  RemoteOrder,
  RemotePayout,
} from '../application/connector.port';

/** Credentials (`api_key`) that make the sandbox's connection test fail, one per typed failure. */
export const SANDBOX_FAILING_KEYS = {
  sandbox_auth_fail: new ConnectorFailure('auth_failed', 'The sandbox refused the api_key (401).'),
  sandbox_unreachable: new ConnectorFailure('unreachable', 'The sandbox shop did not answer.'),
  sandbox_rate_limited: new ConnectorFailure('rate_limited', 'The sandbox is throttling (429).', 30),
} as const;

/** The remote ids prefix whose pushes the sandbox rejects (every attempt fails). */
export const SANDBOX_REJECT_PREFIX = 'sandbox-reject';

/**
 * The built-in adapter: no network, the same answers for the same input. It holds two orders
 * (`SB-1001` paid, `SB-1002` pending) and one payout (`SB-PO-1`) of the QA widget, so an import
 * shows both an imported and a skipped order; `api_key` values of SANDBOX_FAILING_KEYS fail
 * the test (and the import) with that failure, and listings whose remote id starts with
 * `sandbox-reject` fail every push.
 */
export class SandboxConnector implements ConnectorAdapter {
  readonly name = 'sandbox' as const;

  private failure(connection: ConnectorConnection): ConnectorFailure | undefined {
    const key = connection.credentials.api_key;
    return key !== undefined && key in SANDBOX_FAILING_KEYS
      ? SANDBOX_FAILING_KEYS[key as keyof typeof SANDBOX_FAILING_KEYS]
      : undefined;
  }

  test(connection: ConnectorConnection): Promise<{ shop: string }> {
    const failure = this.failure(connection);
    if (failure) return Promise.reject(failure);
    return Promise.resolve({ shop: 'Sandbox shop' });
  }

  pushListing(connection: ConnectorConnection, listing: ListingPush): Promise<{ remote_id: string }> {
    const failure = this.failure(connection);
    if (failure) return Promise.reject(failure);
    if (listing.remote_id?.startsWith(SANDBOX_REJECT_PREFIX))
      return Promise.reject(
        new ConnectorFailure(
          'rejected',
          `The sandbox rejects listings whose remote id starts with ${SANDBOX_REJECT_PREFIX}.`,
        ),
      );
    const id = createHash('sha256').update(listing.listing_id).digest('hex').slice(0, 12);
    return Promise.resolve({ remote_id: listing.remote_id ?? `sandbox-${id}` });
  }

  fetchOrders(connection: ConnectorConnection): Promise<RemoteOrder[]> {
    const failure = this.failure(connection);
    if (failure) return Promise.reject(failure);
    const line = { sku: 'QA-WIDGET-001', title: 'QA Widget', quantity: 2, price: '27.50' };
    return Promise.resolve([
      {
        external_id: 'SB-1001',
        name: '#1001',
        financial_status: 'paid',
        currency: 'USD',
        created_at: '2026-11-20T10:00:00.000Z',
        email: 'ada.shopper@example.com',
        customer_name: 'Ada Shopper',
        lines: [line],
        total: '55.00',
      },
      {
        external_id: 'SB-1002',
        name: '#1002',
        financial_status: 'pending',
        currency: 'USD',
        created_at: '2026-11-21T10:00:00.000Z',
        email: 'ada.shopper@example.com',
        customer_name: 'Ada Shopper',
        lines: [{ ...line, quantity: 1 }],
        total: '27.50',
      },
    ]);
  }

  fetchPayouts(connection: ConnectorConnection): Promise<RemotePayout[]> {
    const failure = this.failure(connection);
    if (failure) return Promise.reject(failure);
    return Promise.resolve([
      {
        external_id: 'SB-PO-1',
        date: '2026-11-22',
        currency: 'USD',
        gross: '55.00',
        fees: '1.90',
        net: '53.10',
      },
    ]);
  }
}
