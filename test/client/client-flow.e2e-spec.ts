import type { AddressInfo } from 'node:net';
import * as erp from '../../clients/typescript/src';
import { createClient, createConfig } from '../../clients/typescript/src/client';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * The generated TypeScript client (clients/typescript) drives a whole business flow against the
 * real app over HTTP: every call below is type-checked against the OpenAPI description by
 * `npm run typecheck`, and its answers are the API's own.
 */
describe('the typed TypeScript client', () => {
  let app: TestApp;
  let client: ReturnType<typeof createClient>;

  beforeAll(async () => {
    app = await startTestApp();
    const { port } = app.server.address() as AddressInfo;
    client = createClient(
      createConfig({
        baseUrl: `http://127.0.0.1:${port}`,
        headers: { Authorization: `Bearer ${app.seed.entities.primary.keys.live}` },
      }),
    );
  });
  afterAll(() => app.close());

  /** The call's data, or a failure that shows the API's error envelope. */
  function ok<T>(result: { data?: T; error?: unknown; response?: Response }): T {
    if (result.data === undefined) {
      throw new Error(`${result.response?.status}: ${JSON.stringify(result.error)}`);
    }
    return result.data;
  }

  it('runs account, product, stock, order, confirm, package, invoice, payment and webhook endpoint', async () => {
    const account = ok(
      await erp.accountsCreate({ client, body: { name: 'Client Flow Ltd', email: 'ap@flow.example' } }),
    );
    expect(account.object).toBe('account');

    const product = ok(
      await erp.productsCreate({
        client,
        body: { sku: `FLOW-${Date.now()}`, name: 'Flow widget', type: 'standard', list_price: 40 },
      }),
    );
    const locationId = app.seed.fixtures.location_id as string;
    const adjustment = ok(
      await erp.adjustmentsCreate({
        client,
        body: {
          product_id: product.id,
          location_id: locationId,
          quantity: 5,
          unit_cost: 10,
          reason: 'Flow stock',
        },
      }),
    );
    expect(adjustment.balance.on_hand).toBe(5);

    const draft = ok(
      await erp.ordersCreate({
        client,
        body: { account_id: account.id, lines: [{ product_id: product.id, quantity: 2 }] },
      }),
    );
    expect(draft.order_status).toBe('draft');
    const order = ok(await erp.ordersConfirm({ client, path: { id: draft.id }, body: {} }));
    expect(order.order_status).toBe('confirmed');

    const pkg = ok(
      await erp.packagesCreate({
        client,
        body: {
          order_id: order.id,
          weight: 1.5,
          items: [{ order_item_id: order.lines![0].id, quantity: 2 }],
        },
      }),
    );
    expect(pkg.status).toBe('packing');

    const invoice = ok(await erp.ordersConvert({ client, path: { id: order.id }, body: {} }));
    expect(invoice.document_type).toBe('invoice');
    const issued = ok(await erp.ordersConfirm({ client, path: { id: invoice.id }, body: {} }));
    const payment = ok(
      await erp.ordersPay({
        client,
        path: { id: issued.id },
        body: { method: 'cash', amount: issued.total },
      }),
    );
    expect(payment.object).toBe('payment');
    const paid = ok(await erp.ordersRetrieve({ client, path: { id: issued.id } }));
    expect(paid.payment_status).toBe('paid');

    const endpoint = ok(
      await erp.webhookEndpointsCreate({
        client,
        body: { url: 'http://127.0.0.1:9/erp-hook', enabled_events: ['order.*'] },
      }),
    );
    expect(endpoint.secret).toMatch(/^whsec_/);

    // Errors come back typed as the flat envelope.
    const missing = await erp.ordersRetrieve({
      client,
      path: { id: '0190a8a0-0000-7000-8000-00000000beef' },
    });
    expect(missing.response?.status).toBe(404);
    expect(missing.error?.code).toBe('not_found');
  });
});
