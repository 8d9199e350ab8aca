import { api, expectError } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';

describe('kit components', () => {
  let app: TestApp;
  let live: ReturnType<typeof api>;
  let test: ReturnType<typeof api>;
  let other: ReturnType<typeof api>;
  let seq = 0;
  const product = async (type = 'standard') =>
    (
      await live
        .post('/v1/products')
        .send({ sku: `KC-${Date.now().toString(36)}-${++seq}`, name: `P${seq}`, type })
        .expect(201)
    ).body.id as string;

  beforeAll(async () => {
    app = await startTestApp();
    live = api(app, app.seed.entities.primary.keys.live);
    test = api(app, app.seed.entities.primary.keys.test);
    other = api(app, app.seed.entities.secondary.keys.live);
  });
  afterAll(() => app.close());

  it('adds, lists, retrieves, updates and removes components of a kit', async () => {
    const kit = await product('kit');
    const [c1, c2] = [await product(), await product()];
    const first = await live
      .post(`/v1/products/${kit}/components`)
      .send({ component_product_id: c1, quantity: 2 })
      .expect(201);
    expect(first.body).toMatchObject({
      object: 'kit_component',
      kit_product_id: kit,
      component_product_id: c1,
      quantity: 2,
      livemode: true,
    });
    await live
      .post(`/v1/products/${kit}/components`)
      .send({ component_product_id: c2, quantity: 1 })
      .expect(201);
    const list = await live.get(`/v1/products/${kit}/components`).expect(200);
    expect(list.body.data.map((c: { component_product_id: string }) => c.component_product_id)).toEqual([
      c2,
      c1,
    ]);
    expect(list.body.url).toBe(`/v1/products/${kit}/components`);
    expect((await live.get(`/v1/products/${kit}/components/${first.body.id}`).expect(200)).body).toEqual(
      first.body,
    );
    const updated = await live
      .patch(`/v1/products/${kit}/components/${first.body.id}`)
      .send({ quantity: 5 })
      .expect(200);
    expect(updated.body.quantity).toBe(5);
    expect((await live.delete(`/v1/products/${kit}/components/${first.body.id}`).expect(200)).body).toEqual({
      id: first.body.id,
      object: 'kit_component',
      deleted: true,
    });
    expectError(await live.get(`/v1/products/${kit}/components/${first.body.id}`), 404, 'not_found');
  });

  it('refuses components on a product that is not a kit', async () => {
    const plain = await product();
    expectError(
      await live
        .post(`/v1/products/${plain}/components`)
        .send({ component_product_id: await product(), quantity: 1 }),
      409,
      'invalid_state',
    );
    expectError(await live.get(`/v1/products/${plain}/components`), 409, 'invalid_state');
  });

  it('refuses cycles, duplicates, services and unknown components', async () => {
    const outer = await product('kit');
    const inner = await product('kit');
    await live
      .post(`/v1/products/${outer}/components`)
      .send({ component_product_id: inner, quantity: 1 })
      .expect(201);
    expectError(
      await live.post(`/v1/products/${inner}/components`).send({ component_product_id: outer, quantity: 1 }),
      400,
      'parameter_invalid',
      { param: 'component_product_id' },
    );
    expectError(
      await live.post(`/v1/products/${outer}/components`).send({ component_product_id: outer, quantity: 1 }),
      400,
      'parameter_invalid',
      { param: 'component_product_id' },
    );
    expectError(
      await live.post(`/v1/products/${outer}/components`).send({ component_product_id: inner, quantity: 3 }),
      400,
      'parameter_invalid',
      { param: 'component_product_id' },
    );
    expectError(
      await live
        .post(`/v1/products/${outer}/components`)
        .send({ component_product_id: await product('service'), quantity: 1 }),
      400,
      'parameter_invalid',
      { param: 'component_product_id' },
    );
    expectError(
      await live
        .post(`/v1/products/${outer}/components`)
        .send({ component_product_id: '0190a7e2-0000-7000-8000-000000000000', quantity: 1 }),
      400,
      'parameter_invalid',
      { param: 'component_product_id' },
    );
    for (const [body, code, param] of [
      [{ quantity: 1 }, 'parameter_missing', 'component_product_id'],
      [{ component_product_id: inner }, 'parameter_missing', 'quantity'],
      [{ component_product_id: inner, quantity: 0 }, 'parameter_invalid', 'quantity'],
      [{ component_product_id: inner, quantity: 1.5 }, 'parameter_invalid', 'quantity'],
    ] as const) {
      expectError(await live.post(`/v1/products/${outer}/components`).send(body), 400, code, { param });
    }
  });

  it('isolates entities and modes', async () => {
    const kit = await product('kit');
    const c = await live
      .post(`/v1/products/${kit}/components`)
      .send({ component_product_id: await product(), quantity: 1 })
      .expect(201);
    expectError(await other.get(`/v1/products/${kit}/components`), 404, 'not_found');
    expectError(await test.get(`/v1/products/${kit}/components/${c.body.id}`), 404, 'not_found');
    expectError(await other.delete(`/v1/products/${kit}/components/${c.body.id}`), 404, 'not_found');
    const foreign = (
      await other
        .post('/v1/products')
        .send({ sku: `F-${Date.now().toString(36)}`, name: 'F' })
        .expect(201)
    ).body.id;
    expectError(
      await live.post(`/v1/products/${kit}/components`).send({ component_product_id: foreign, quantity: 1 }),
      400,
      'parameter_invalid',
      { param: 'component_product_id' },
    );
  });
});
