import { api, expectError } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';

type Api = ReturnType<typeof api>;

describe('orders', () => {
  let app: TestApp;
  let live: Api;
  let accountId: string;
  let productId: string;

  beforeAll(async () => {
    app = await startTestApp();
    live = api(app, app.seed.entities.primary.keys.live);
    productId = app.seed.fixtures.product_id as string;
    accountId = (await live.post('/v1/accounts').send({ name: 'Orders Co' }).expect(201)).body.id;
  });
  afterAll(() => app.close());

  const createOrder = (body: Record<string, unknown>, client: Api = live) =>
    client.post('/v1/orders').send({ account_id: accountId, ...body });

  it('creates a draft sales order priced from the product list price, with exact totals', async () => {
    const res = await createOrder({
      lines: [
        { product_id: productId, quantity: 3 },
        { description: 'Service hour', quantity: 1.5, unit_price: 19.99, discount_percent: 10, tax_rate: 8.25 },
      ],
    }).expect(201);
    const order = res.body;
    expect(order).toMatchObject({
      object: 'order',
      document_type: 'sales_order',
      account_id: accountId,
      currency: 'USD',
      order_status: 'draft',
      payment_status: 'unpaid',
      livemode: true,
      tag_ids: [],
    });
    expect(order.lines[0]).toMatchObject({ product_id: productId, quantity: 3, list_price: 25, unit_price: 25, pricing_policy_id: null, subtotal: 75, total: 75, description: 'QA Widget' });
    // 1.5 × 19.99 = 29.985; 10% = 2.9985; taxable 26.9865; tax 8.25% = 2.22638625 → 2.2264
    expect(order.lines[1]).toMatchObject({ subtotal: 29.985, discount_total: 2.9985, tax_total: 2.2264, total: 29.2129 });
    expect(order).toMatchObject({ subtotal: 104.99, discount_total: 3, tax_total: 2.23, total: 104.22, amount_paid: 0, amount_due: 104.22 });
    const got = await live.get(`/v1/orders/${order.id}`).expect(200);
    expect(got.body).toEqual(order);
    const events = await app.db.query(`SELECT type FROM outbox_events WHERE data->'object'->>'id' = $1 ORDER BY id`, [order.id]);
    expect(events.rows.map((r) => r.type)).toEqual(['order.created']);
  });
});
