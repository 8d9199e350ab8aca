import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** Access tokens the contract server knows, and how it answers each. */
export const SHOPIFY_TOKENS = {
  valid: 'shpat_contract_valid_0001',
  revoked: 'shpat_contract_revoked_02',
  throttled: 'shpat_contract_throttle_3',
  broken: 'shpat_contract_broken_004',
} as const;

const VERSION = '2025-07';

/** Three orders (two paid, one pending), one per page so the `Link` header is followed. */
const ORDERS = [
  {
    id: 450789469,
    name: '#1001',
    email: 'bob.norman@example.com',
    created_at: '2026-11-20T10:00:00-05:00',
    currency: 'USD',
    financial_status: 'paid',
    total_price: '40.00',
    customer: { first_name: 'Bob', last_name: 'Norman', email: 'bob.norman@example.com' },
    line_items: [{ sku: 'SHOP-TEE', title: 'Tee', quantity: 2, price: '20.00' }],
  },
  {
    id: 450789470,
    name: '#1002',
    email: 'bob.norman@example.com',
    created_at: '2026-11-21T10:00:00-05:00',
    currency: 'USD',
    financial_status: 'paid',
    total_price: '15.50',
    customer: { first_name: 'Bob', last_name: 'Norman', email: 'bob.norman@example.com' },
    line_items: [{ sku: null, title: 'Gift wrap', quantity: 1, price: '15.50' }],
  },
  {
    id: 450789471,
    name: '#1003',
    email: 'pending@example.com',
    created_at: '2026-11-22T10:00:00-05:00',
    currency: 'USD',
    financial_status: 'pending',
    total_price: '9.00',
    customer: null,
    line_items: [{ sku: 'SHOP-TEE', title: 'Tee', quantity: 1, price: '9.00' }],
  },
];

const PAYOUTS = [
  {
    id: 623721858,
    status: 'paid',
    date: '2026-11-23',
    currency: 'USD',
    amount: '53.89',
    summary: {
      adjustments_fee_amount: '0.00',
      adjustments_gross_amount: '0.00',
      charges_fee_amount: '1.61',
      charges_gross_amount: '55.50',
      refunds_fee_amount: '0.00',
      refunds_gross_amount: '0.00',
      reserved_funds_fee_amount: '0.00',
      reserved_funds_gross_amount: '0.00',
      retried_payouts_fee_amount: '0.00',
      retried_payouts_gross_amount: '0.00',
    },
  },
];

export interface ContractServer {
  url: string;
  /** Requests received, as `METHOD path` with the token each carried. */
  requests: { method: string; path: string; token: string | undefined }[];
  close(): Promise<void>;
}

/**
 * A local stand-in of the Shopify Admin REST API (version 2025-07) answering as Shopify
 * documents it: `X-Shopify-Access-Token` authentication (401 with `{"errors": "[API] Invalid API
 * key or access token ..."}`), `X-Shopify-Shop-Api-Call-Limit` on every answer, 429 with
 * `Retry-After`, cursor pagination through `Link: <...page_info=...>; rel="next"` (a page URL
 * carries only `limit` and `page_info`), 422 `{"errors": {"field": [...]}}` on a refused product,
 * 404 `{"errors": "Not Found"}`.
 */
export async function startShopifyContractServer(): Promise<ContractServer> {
  const requests: ContractServer['requests'] = [];
  let calls = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://contract.local');
      const token = req.headers['x-shopify-access-token'] as string | undefined;
      requests.push({ method: req.method ?? 'GET', path: url.pathname, token });
      calls = (calls % 39) + 1;
      const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, {
          'Content-Type': 'application/json; charset=utf-8',
          'X-Shopify-Shop-Api-Call-Limit': `${calls}/40`,
          ...headers,
        });
        res.end(JSON.stringify(body));
      };
      const prefix = `/admin/api/${VERSION}/`;
      if (!url.pathname.startsWith(prefix)) return send(404, { errors: 'Not Found' });
      if (token === SHOPIFY_TOKENS.throttled)
        return send(
          429,
          {
            errors:
              'Exceeded 2 calls per second for api client. Reduce request rates to resume uninterrupted service.',
          },
          { 'Retry-After': '2.0' },
        );
      if (token === SHOPIFY_TOKENS.broken) return send(503, { errors: 'Service Unavailable' });
      if (token !== SHOPIFY_TOKENS.valid)
        return send(401, {
          errors: '[API] Invalid API key or access token (unrecognized login or wrong password)',
        });
      const path = url.pathname.slice(prefix.length);
      const body = (chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : {}) as {
        product?: { title?: string; status?: string };
      };
      if (req.method === 'GET' && path === 'shop.json')
        return send(200, {
          shop: { id: 690933842, name: 'Contract Shop', myshopify_domain: 'contract.myshopify.com' },
        });
      if (req.method === 'POST' && path === 'products.json') {
        if (!body.product?.title) return send(422, { errors: { title: ["can't be blank"] } });
        return send(201, {
          product: { id: 632910392, title: body.product.title, status: body.product.status },
        });
      }
      const put = /^products\/(\d+)\.json$/.exec(path);
      if (req.method === 'PUT' && put) {
        if (put[1] !== '632910392') return send(404, { errors: 'Not Found' });
        return send(200, { product: { id: 632910392, title: body.product?.title } });
      }
      if (req.method === 'GET' && path === 'orders.json') {
        const pageInfo = url.searchParams.get('page_info');
        if (pageInfo !== null && [...url.searchParams.keys()].some((k) => k !== 'page_info' && k !== 'limit'))
          return send(400, { errors: { page_info: ['Only limit can be combined with page_info'] } });
        const index = pageInfo === null ? 0 : Number(Buffer.from(pageInfo, 'base64url').toString('utf8'));
        const page = ORDERS.slice(index, index + 1);
        const headers: Record<string, string> = {};
        const origin = `http://${req.headers.host}`;
        const cursor = (i: number) => Buffer.from(String(i), 'utf8').toString('base64url');
        const links: string[] = [];
        if (index > 0)
          links.push(
            `<${origin}${prefix}orders.json?limit=1&page_info=${cursor(index - 1)}>; rel="previous"`,
          );
        if (index + 1 < ORDERS.length)
          links.push(`<${origin}${prefix}orders.json?limit=1&page_info=${cursor(index + 1)}>; rel="next"`);
        if (links.length) headers.Link = links.join(', ');
        return send(200, { orders: page }, headers);
      }
      if (req.method === 'GET' && path === 'shopify_payments/payouts.json')
        return send(200, { payouts: PAYOUTS });
      return send(404, { errors: 'Not Found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
