import Decimal from 'decimal.js';
import {
  ConnectorAdapter,
  ConnectorConnection,
  ConnectorFailure,
  ListingPush,
  RemoteOrder,
  RemotePayout,
} from '../application/connector.port';
import type { HostResolver } from '#platform/net/host-resolver';
import { shopTargetRefusal } from '../domain/shop-url';

/** The Shopify Admin REST API version this adapter speaks (docs/api-decisions.md, "Integrations"). */
export const SHOPIFY_API_VERSION = '2025-07';

/** The most pages one fetch follows through `Link: <...>; rel="next"` (250 records each). */
const MAX_PAGES = 40;

interface ShopifyOrder {
  id: number | string;
  name: string;
  email?: string | null;
  created_at: string;
  currency: string;
  financial_status: string;
  total_price: string;
  customer?: { first_name?: string | null; last_name?: string | null; email?: string | null } | null;
  line_items: { sku?: string | null; title: string; quantity: number; price: string }[];
}

interface ShopifyPayout {
  id: number | string;
  status: string;
  date: string;
  currency: string;
  amount: string;
  summary?: Record<string, string>;
}

/** The URL of the next page from a `Link` header (RFC 8288, as Shopify sends it), or undefined. */
export function nextPageUrl(link: string | null): string | undefined {
  if (!link) return undefined;
  for (const part of link.split(',')) {
    const match = /<([^>]+)>\s*;\s*rel="?next"?/.exec(part.trim());
    if (match) return match[1];
  }
  return undefined;
}

/** Shopify's error body `{"errors": ...}` (a string, a list or a field map) as one sentence. */
export function shopifyErrorText(body: unknown): string {
  const errors = (body as { errors?: unknown } | null)?.errors;
  if (typeof errors === 'string') return errors;
  if (Array.isArray(errors)) return errors.map(String).join('; ');
  if (errors && typeof errors === 'object')
    return Object.entries(errors as Record<string, unknown>)
      .map(
        ([field, problems]) => `${field} ${Array.isArray(problems) ? problems.join(', ') : String(problems)}`,
      )
      .join('; ');
  return 'no error detail';
}

/**
 * Shopify Admin REST API adapter: `X-Shopify-Access-Token` authentication, products for listing
 * pushes, orders (cursor pages through the `Link` header) and Shopify Payments payouts. A 401/403
 * is `auth_failed`; a 429 is `rate_limited` with its `Retry-After`; 5xx, timeouts and refused
 * connections are `unreachable`; a 4xx with `{"errors": ...}` on a push is `rejected`. The shop
 * URL is checked (and its host resolved) before every request; redirects are not followed.
 */
export class ShopifyConnector implements ConnectorAdapter {
  readonly name = 'shopify' as const;

  constructor(
    private readonly options: {
      timeoutMs: number;
      allowPrivate: boolean;
      hosts: Pick<HostResolver, 'check'>;
    },
  ) {}

  async test(connection: ConnectorConnection): Promise<{ shop: string }> {
    const { body } = await this.request<{ shop?: { name?: string } }>(connection, 'GET', 'shop.json');
    return { shop: body.shop?.name ?? 'Shopify shop' };
  }

  async pushListing(connection: ConnectorConnection, listing: ListingPush): Promise<{ remote_id: string }> {
    const product = {
      title: listing.title,
      status: listing.active ? 'active' : 'draft',
      variants: [{ sku: listing.sku, price: listing.price }],
    };
    const existing = listing.remote_id && /^\d+$/.test(listing.remote_id) ? listing.remote_id : undefined;
    const { body } = existing
      ? await this.request<{ product?: { id: number | string } }>(
          connection,
          'PUT',
          `products/${existing}.json`,
          {
            product: { id: Number(existing), ...product },
          },
        )
      : await this.request<{ product?: { id: number | string } }>(connection, 'POST', 'products.json', {
          product,
        });
    if (body.product?.id === undefined)
      throw new ConnectorFailure('unreachable', 'Shopify answered without a product.');
    return { remote_id: String(body.product.id) };
  }

  async fetchOrders(connection: ConnectorConnection, since: string | null): Promise<RemoteOrder[]> {
    const query = new URLSearchParams({ status: 'any', limit: '250', order: 'created_at asc' });
    if (since) query.set('created_at_min', since);
    const orders = await this.pages<ShopifyOrder>(connection, `orders.json?${query.toString()}`, 'orders');
    return orders.map((o) => ({
      external_id: String(o.id),
      name: o.name,
      financial_status: o.financial_status,
      currency: o.currency,
      created_at: o.created_at,
      email: o.email ?? o.customer?.email ?? null,
      customer_name:
        [o.customer?.first_name, o.customer?.last_name].filter(Boolean).join(' ') ||
        o.email ||
        `Shopify ${o.name}`,
      lines: o.line_items.map((l) => ({
        sku: l.sku ?? null,
        title: l.title,
        quantity: l.quantity,
        price: l.price,
      })),
      total: o.total_price,
    }));
  }

  async fetchPayouts(connection: ConnectorConnection, since: string | null): Promise<RemotePayout[]> {
    const query = new URLSearchParams({ status: 'paid', limit: '250' });
    if (since) query.set('date_min', since.slice(0, 10));
    const payouts = await this.pages<ShopifyPayout>(
      connection,
      `shopify_payments/payouts.json?${query.toString()}`,
      'payouts',
    );
    return payouts
      .filter((p) => p.status === 'paid')
      .map((p) => {
        const summary = p.summary ?? {};
        // Fees are negative-signed nowhere in Shopify's summary: every *_fee_amount is a cost.
        const fees = Object.entries(summary)
          .filter(([key]) => key.endsWith('_fee_amount'))
          .reduce((sum, [, value]) => sum.plus(new Decimal(value || 0)), new Decimal(0));
        const net = new Decimal(p.amount);
        return {
          external_id: String(p.id),
          date: p.date,
          currency: p.currency,
          gross: net.plus(fees).toFixed(2),
          fees: fees.toFixed(2),
          net: net.toFixed(2),
        };
      })
      .sort((a, b) => a.date.localeCompare(b.date));
  }

  private async pages<T>(connection: ConnectorConnection, first: string, key: string): Promise<T[]> {
    const rows: T[] = [];
    let path: string | undefined = first;
    for (let page = 0; path !== undefined && page < MAX_PAGES; page++) {
      const { body, headers }: { body: Record<string, T[] | undefined>; headers: Headers } =
        await this.request<Record<string, T[] | undefined>>(connection, 'GET', path);
      rows.push(...(body[key] ?? []));
      const next = nextPageUrl(headers.get('link'));
      path = next === undefined ? undefined : this.relativeToApi(connection, next);
    }
    return rows;
  }

  /** A `Link` URL as a path below the API root; a link to another host is not followed. */
  private relativeToApi(connection: ConnectorConnection, absolute: string): string | undefined {
    const root = this.apiRoot(connection);
    return absolute.startsWith(root) ? absolute.slice(root.length) : undefined;
  }

  private apiRoot(connection: ConnectorConnection): string {
    return `${(connection.settings.shop_url ?? '').replace(/\/+$/, '')}/admin/api/${SHOPIFY_API_VERSION}/`;
  }

  /** The shop URL checked again before each call, as at registration: its host resolved, every address checked. */
  private async checkTarget(connection: ConnectorConnection): Promise<void> {
    const { allowPrivate, hosts } = this.options;
    const refusal = await shopTargetRefusal(connection.settings.shop_url ?? '', allowPrivate, hosts);
    if (refusal) throw new ConnectorFailure('unreachable', refusal);
  }

  private async request<T>(
    connection: ConnectorConnection,
    method: 'GET' | 'POST' | 'PUT',
    path: string,
    payload?: unknown,
  ): Promise<{ body: T; headers: Headers }> {
    await this.checkTarget(connection);
    let response: Response;
    try {
      response = await fetch(this.apiRoot(connection) + path, {
        method,
        redirect: 'manual',
        signal: AbortSignal.timeout(this.options.timeoutMs),
        headers: {
          'X-Shopify-Access-Token': connection.credentials.access_token ?? '',
          Accept: 'application/json',
          ...(payload === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        ...(payload === undefined ? {} : { body: JSON.stringify(payload) }),
      });
    } catch (error) {
      const timedOut = error instanceof Error && error.name === 'TimeoutError';
      throw new ConnectorFailure(
        'unreachable',
        timedOut ? 'Shopify did not answer in time.' : 'Shopify could not be reached.',
      );
    }
    const text = await response.text().catch(() => '');
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : {};
    } catch {
      body = undefined;
    }
    const status = response.status;
    if (status === 401 || status === 403)
      throw new ConnectorFailure(
        'auth_failed',
        `Shopify refused the access token (${status}): ${shopifyErrorText(body)}.`,
      );
    if (status === 429) {
      const retryAfter = Math.ceil(Number(response.headers.get('retry-after') ?? '2') || 2);
      throw new ConnectorFailure(
        'rate_limited',
        `Shopify is throttling this shop (429); retry after ${retryAfter} s.`,
        retryAfter,
      );
    }
    if (status >= 500 || (status >= 300 && status < 400))
      throw new ConnectorFailure('unreachable', `Shopify answered ${status}.`);
    if (status >= 400)
      throw new ConnectorFailure(
        'rejected',
        `Shopify refused the request (${status}): ${shopifyErrorText(body)}.`,
      );
    if (body === undefined || typeof body !== 'object')
      throw new ConnectorFailure(
        'unreachable',
        'Shopify answered with something that is not its API (not JSON).',
      );
    return { body: body as T, headers: response.headers };
  }
}
