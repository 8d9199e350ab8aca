import { waitFor } from '../support/eventually';
import { api, expectError } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';

type Api = ReturnType<typeof api>;
type Order = { id: string; document_type: string; created_at: string; [k: string]: unknown };

describe('GET /orders', () => {
  let app: TestApp;
  let live: Api;
  let accountId: string;
  let otherAccountId: string;
  let productId: string;
  const made: Order[] = [];

  const ids = (res: { body: { data: Order[] } }) => res.body.data.map((o) => o.id);
  const list = async (query: string) => (await live.get(`/v1/orders?limit=100&${query}`).expect(200)).body;

  beforeAll(async () => {
    app = await startTestApp();
    live = api(app, app.seed.entities.primary.keys.live);
    productId = app.seed.fixtures.product_id as string;
    accountId = (await live.post('/v1/accounts').send({ name: 'List Co' }).expect(201)).body.id;
    otherAccountId = (await live.post('/v1/accounts').send({ name: 'Other Co' }).expect(201)).body.id;
    const types = [
      'quote',
      'sales_order',
      'invoice',
      'return',
      'purchase_order',
      'late_fee_invoice',
      'sales_order',
      'invoice',
    ];
    for (const document_type of types) {
      const res = await live
        .post('/v1/orders')
        .send({ document_type, account_id: accountId, lines: [{ product_id: productId, quantity: 1 }] })
        .expect(201);
      made.push(res.body);
      // Each order gets its own millisecond: created_after / created_before split at one of them.
      await waitFor(() => Date.now() > Date.parse(res.body.created_at), {
        everyMs: 1,
        label: 'the next millisecond',
      });
    }
    made.push(
      (
        await live
          .post('/v1/orders')
          .send({ account_id: otherAccountId, lines: [{ product_id: productId, quantity: 1 }] })
          .expect(201)
      ).body,
    );
    // made[1] confirmed; made[2] a confirmed invoice paid in part.
    await live.post(`/v1/orders/${made[1].id}/confirm`).expect(200);
    await live.post(`/v1/orders/${made[2].id}/confirm`).expect(200);
    await live.post(`/v1/orders/${made[2].id}/payments`).send({ method: 'cash', amount: 5 }).expect(201);
  });
  afterAll(() => app.close());

  it('lists quotes, sales orders and invoices by default, newest first', async () => {
    const body = await list(`account_id=${accountId}`);
    expect(body).toMatchObject({ object: 'list', has_more: false, url: '/v1/orders' });
    const expected = made
      .filter((o, i) => i < 8 && ['quote', 'sales_order', 'invoice'].includes(o.document_type))
      .map((o) => o.id)
      .reverse();
    expect(body.data.map((o: Order) => o.id)).toEqual(expected);
    const createdAts = body.data.map((o: Order) => o.created_at);
    expect([...createdAts].sort().reverse()).toEqual(createdAts);
  });

  it('switches to one document type with document_type', async () => {
    for (const type of ['return', 'purchase_order', 'late_fee_invoice', 'invoice']) {
      const body = await list(`account_id=${accountId}&document_type=${type}`);
      expect(body.data.map((o: Order) => o.id)).toEqual(
        made
          .filter((o, i) => i < 8 && o.document_type === type)
          .map((o) => o.id)
          .reverse(),
      );
    }
  });

  it('GET /purchase-orders applies its document_type filter: purchase_order lists them, another type is refused', async () => {
    const po = made[4];
    expect(po.document_type).toBe('purchase_order');
    // Another purchase order of this account, confirmed: both are listed, newest first.
    const second = (
      await live
        .post('/v1/purchase-orders')
        .send({ account_id: accountId, lines: [{ product_id: productId, quantity: 2 }] })
        .expect(201)
    ).body as Order;
    const expected = [second.id, po.id];
    const all = (await live.get(`/v1/purchase-orders?account_id=${accountId}&limit=100`).expect(200)).body;
    expect(ids({ body: all })).toEqual(expected);
    const filtered = (
      await live
        .get(`/v1/purchase-orders?account_id=${accountId}&document_type=purchase_order&limit=100`)
        .expect(200)
    ).body;
    expect(ids({ body: filtered })).toEqual(expected);
    expect(filtered.data.every((o: Order) => o.document_type === 'purchase_order')).toBe(true);
    // A type this route never lists is a refusal naming the filter, not a filter silently dropped.
    for (const type of ['sales_order', 'invoice', 'return', 'quote', 'late_fee_invoice'])
      expectError(
        await live.get(`/v1/purchase-orders?account_id=${accountId}&document_type=${type}`),
        400,
        'parameter_invalid',
        { param: 'document_type' },
      );
    // The description offers only that one value there.
    const parameter = (
      app.openapi as unknown as {
        paths: Record<string, { get: { parameters: { name: string; schema: { enum?: string[] } }[] } }>;
      }
    ).paths['/v1/purchase-orders'].get.parameters.find((p) => p.name === 'document_type');
    expect(parameter?.schema.enum).toEqual(['purchase_order']);
    await live.delete(`/v1/orders/${second.id}`).expect((res) => expect([200, 204]).toContain(res.status));
  });

  it('filters by account_id, order_status, payment_status and created_after / created_before', async () => {
    expect(ids(await live.get(`/v1/orders?account_id=${otherAccountId}`).expect(200))).toEqual([made[8].id]);
    expect(
      (await list(`account_id=${accountId}&order_status=confirmed`)).data.map((o: Order) => o.id),
    ).toEqual([made[2].id, made[1].id]);
    expect(
      (await list(`account_id=${accountId}&payment_status=partially_paid`)).data.map((o: Order) => o.id),
    ).toEqual([made[2].id]);
    expect(
      (
        await list(
          `account_id=${accountId}&payment_status=unpaid&order_status=draft&document_type=sales_order`,
        )
      ).data.map((o: Order) => o.id),
    ).toEqual([made[6].id]);
    const pivot = made[2].created_at;
    const after = (await list(`account_id=${accountId}&created_after=${encodeURIComponent(pivot)}`)).data.map(
      (o: Order) => o.id,
    );
    expect(after).toEqual([made[7].id, made[6].id]);
    const before = (
      await list(`account_id=${accountId}&created_before=${encodeURIComponent(pivot)}`)
    ).data.map((o: Order) => o.id);
    expect(before).toEqual([made[1].id, made[0].id]);
  });

  it('sorts by created_at ascending or descending', async () => {
    const desc = (await list(`account_id=${accountId}&sort=created_at_desc`)).data.map((o: Order) => o.id);
    const minus = (await list(`account_id=${accountId}&sort=-created_at`)).data.map((o: Order) => o.id);
    const asc = (await list(`account_id=${accountId}&sort=created_at_asc`)).data.map((o: Order) => o.id);
    const plain = (await list(`account_id=${accountId}&sort=created_at`)).data.map((o: Order) => o.id);
    expect(minus).toEqual(desc);
    expect(asc).toEqual([...desc].reverse());
    expect(plain).toEqual(asc);
  });

  it('pages with cursors in both sort orders without skipping or repeating', async () => {
    for (const sort of ['created_at_desc', 'created_at_asc']) {
      const all = (await list(`account_id=${accountId}&sort=${sort}`)).data.map((o: Order) => o.id);
      const seen: string[] = [];
      let cursor: string | undefined;
      for (;;) {
        const page = (
          await live
            .get(
              `/v1/orders?account_id=${accountId}&sort=${sort}&limit=2${cursor ? `&starting_after=${cursor}` : ''}`,
            )
            .expect(200)
        ).body;
        seen.push(...page.data.map((o: Order) => o.id));
        if (!page.has_more) break;
        cursor = page.data[page.data.length - 1].id;
      }
      expect(seen).toEqual(all);
      const back = (
        await live
          .get(`/v1/orders?account_id=${accountId}&sort=${sort}&limit=2&ending_before=${all[3]}`)
          .expect(200)
      ).body;
      expect(back.data.map((o: Order) => o.id)).toEqual(all.slice(1, 3));
    }
    const counted = (
      await live.get(`/v1/orders?account_id=${accountId}&include_count=true&limit=1`).expect(200)
    ).body;
    expect(counted).toMatchObject({ total_count: 5, has_more: true });
  });

  it('expands account and lines.product in batches', async () => {
    const body = (
      await live.get(`/v1/orders?account_id=${accountId}&expand[]=account&expand[]=lines.product`).expect(200)
    ).body;
    // The default list holds this account's quotes, sales orders and invoices made above.
    expect(body.data.map((o: Order) => o.id).sort()).toEqual(
      made
        .filter((o, i) => i < 8 && ['quote', 'sales_order', 'invoice'].includes(o.document_type))
        .map((o) => o.id)
        .sort(),
    );
    for (const order of body.data) {
      expect(order.account).toMatchObject({ id: accountId, object: 'account', name: 'List Co' });
      expect(order.lines[0].product).toMatchObject({
        id: productId,
        object: 'product',
        sku: 'QA-WIDGET-001',
      });
    }
    const one = (await live.get(`/v1/orders/${made[0].id}?expand[]=account`).expect(200)).body;
    expect(one.account.id).toBe(accountId);
    expectError(await live.get('/v1/orders?expand[]=lines.bogus'), 400, 'invalid_expand', {
      param: 'expand[0]',
    });
  });

  it('shows only the caller entity and mode', async () => {
    const test = api(app, app.seed.entities.primary.keys.test);
    const other = api(app, app.seed.entities.secondary.keys.live);
    const testIds = (await test.get('/v1/orders?limit=100').expect(200)).body.data;
    expect(testIds.every((o: Order) => o.livemode === false)).toBe(true);
    expect(testIds.map((o: Order) => o.id)).toEqual([app.seed.fixtures.test_order_id]);
    expect((await other.get('/v1/orders').expect(200)).body.data).toEqual([]);
    expect((await other.get(`/v1/orders?account_id=${accountId}`).expect(200)).body.data).toEqual([]);
  });
});
