import { api, expectError } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';

describe('product vendors', () => {
  let app: TestApp;
  let live: ReturnType<typeof api>;
  let test: ReturnType<typeof api>;
  let other: ReturnType<typeof api>;
  let readOnly: ReturnType<typeof api>;
  let seq = 0;
  const sku = () => `PV-${Date.now().toString(36)}-${++seq}`;
  let productId: string;
  let vendorA: string;
  let vendorB: string;

  beforeAll(async () => {
    app = await startTestApp();
    live = api(app, app.seed.entities.primary.keys.live);
    test = api(app, app.seed.entities.primary.keys.test);
    other = api(app, app.seed.entities.secondary.keys.live);
    readOnly = api(app, app.seed.entities.primary.keys.read_only);
    productId = (await live.post('/v1/products').send({ sku: sku(), name: 'Bolt' }).expect(201)).body.id;
    vendorA = (await live.post('/v1/accounts').send({ name: 'Acme Supply', currency: 'EUR' }).expect(201))
      .body.id;
    vendorB = (await live.post('/v1/accounts').send({ name: 'Bolt Works' }).expect(201)).body.id;
  });
  afterAll(() => app.close());

  it('creates a vendor with every field, the first one preferred by default', async () => {
    const res = await live
      .post(`/v1/products/${productId}/vendors`)
      .send({
        vendor_account_id: vendorA,
        vendor_sku: 'AC-1',
        unit_cost: 1.2345,
        lead_time_days: 14,
        min_order_quantity: 50,
        order_multiple: 12,
      })
      .expect(201);
    expect(res.body).toMatchObject({
      object: 'product_vendor',
      product_id: productId,
      vendor_account_id: vendorA,
      vendor_sku: 'AC-1',
      unit_cost: 1.2345,
      currency: 'EUR',
      lead_time_days: 14,
      min_order_quantity: 50,
      order_multiple: 12,
      is_preferred: true,
      livemode: true,
    });
    const fetched = await live.get(`/v1/products/${productId}/vendors/${res.body.id}`).expect(200);
    expect(fetched.body).toEqual(res.body);
  });

  it('keeps one preferred vendor per product', async () => {
    const second = await live
      .post(`/v1/products/${productId}/vendors`)
      .send({ vendor_account_id: vendorB, currency: 'usd' })
      .expect(201);
    expect(second.body).toMatchObject({
      is_preferred: false,
      currency: 'USD',
      order_multiple: 1,
      min_order_quantity: 1,
    });
    await live
      .patch(`/v1/products/${productId}/vendors/${second.body.id}`)
      .send({ is_preferred: true })
      .expect(200);
    const list = await live.get(`/v1/products/${productId}/vendors`).expect(200);
    expect(list.body).toMatchObject({
      object: 'list',
      has_more: false,
      url: `/v1/products/${productId}/vendors`,
    });
    expect(
      list.body.data.map((v: { vendor_account_id: string; is_preferred: boolean }) => [
        v.vendor_account_id,
        v.is_preferred,
      ]),
    ).toEqual([
      [vendorB, true],
      [vendorA, false],
    ]);
    const page = await live.get(`/v1/products/${productId}/vendors?limit=1`).expect(200);
    expect(page.body.has_more).toBe(true);
    const next = await live
      .get(`/v1/products/${productId}/vendors?limit=1&starting_after=${page.body.data[0].id}`)
      .expect(200);
    expect(next.body.data[0].vendor_account_id).toBe(vendorA);
  });

  it('updates the terms, order_multiple included', async () => {
    const created = await live
      .post(
        `/v1/products/${(await live.post('/v1/products').send({ sku: sku(), name: 'Nut' })).body.id}/vendors`,
      )
      .send({ vendor_account_id: vendorA })
      .expect(201);
    const res = await live
      .patch(`/v1/products/${created.body.product_id}/vendors/${created.body.id}`)
      .send({ order_multiple: 24, lead_time_days: 3, unit_cost: null, vendor_sku: null })
      .expect(200);
    expect(res.body).toMatchObject({
      order_multiple: 24,
      lead_time_days: 3,
      unit_cost: null,
      vendor_sku: null,
    });
  });

  it('deletes a vendor', async () => {
    const created = await live
      .post(`/v1/products/${productId}/vendors`)
      .send({ vendor_account_id: (await live.post('/v1/accounts').send({ name: 'Third' })).body.id })
      .expect(201);
    const res = await live.delete(`/v1/products/${productId}/vendors/${created.body.id}`).expect(200);
    expect(res.body).toEqual({ id: created.body.id, object: 'product_vendor', deleted: true });
    expectError(await live.get(`/v1/products/${productId}/vendors/${created.body.id}`), 404, 'not_found');
  });

  it('refuses bad input with the envelope', async () => {
    expectError(await live.post(`/v1/products/${productId}/vendors`).send({}), 400, 'parameter_missing', {
      param: 'vendor_account_id',
    });
    expectError(
      await live.post(`/v1/products/${productId}/vendors`).send({ vendor_account_id: productId }),
      400,
      'parameter_invalid',
      { param: 'vendor_account_id' },
    );
    expectError(
      await live.post(`/v1/products/${productId}/vendors`).send({ vendor_account_id: vendorA }),
      400,
      'parameter_invalid',
      { param: 'vendor_account_id' },
    );
    const someVendor = (await live.get(`/v1/products/${productId}/vendors`)).body.data[0].id;
    for (const [body, param] of [
      [{ order_multiple: 0 }, 'order_multiple'],
      [{ order_multiple: 1.5 }, 'order_multiple'],
      [{ min_order_quantity: -1 }, 'min_order_quantity'],
      [{ lead_time_days: 'x' }, 'lead_time_days'],
      [{ currency: 'EURO' }, 'currency'],
      [{ unit_cost: -1 }, 'unit_cost'],
    ] as const) {
      expectError(
        await live.patch(`/v1/products/${productId}/vendors/${someVendor}`).send(body),
        400,
        'parameter_invalid',
        {
          param,
        },
      );
    }
    expectError(
      await live
        .patch(`/v1/products/${productId}/vendors/${someVendor}`)
        .send({ vendor_account_id: vendorB }),
      400,
      'parameter_unknown',
      { param: 'vendor_account_id' },
    );
  });

  it('isolates entities and modes, and checks scopes', async () => {
    const vendorId = (await live.get(`/v1/products/${productId}/vendors`)).body.data[0].id;
    expectError(await other.get(`/v1/products/${productId}/vendors`), 404, 'not_found');
    expectError(await other.get(`/v1/products/${productId}/vendors/${vendorId}`), 404, 'not_found');
    expectError(await test.get(`/v1/products/${productId}/vendors/${vendorId}`), 404, 'not_found');
    expectError(
      await test.patch(`/v1/products/${productId}/vendors/${vendorId}`).send({ lead_time_days: 1 }),
      404,
      'not_found',
    );
    expectError(
      await live.get(`/v1/products/${app.seed.fixtures.product_id as string}/vendors/${vendorId}`),
      404,
      'not_found',
    );
    await readOnly.get(`/v1/products/${productId}/vendors`).expect(200);
    expectError(
      await readOnly.post(`/v1/products/${productId}/vendors`).send({ vendor_account_id: vendorA }),
      403,
      'insufficient_scope',
      { required: 'products:write' },
    );
    // The vendor account must belong to the same entity and mode.
    const foreignAccount = (await other.post('/v1/accounts').send({ name: 'Elsewhere' }).expect(201)).body.id;
    expectError(
      await live.post(`/v1/products/${productId}/vendors`).send({ vendor_account_id: foreignAccount }),
      400,
      'parameter_invalid',
      { param: 'vendor_account_id' },
    );
  });
});
