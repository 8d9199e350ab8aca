import { expectEvent } from '../support/expect-event';
import { asEntity } from '../support/as-entity';
import { PricingPoliciesService } from '#contexts/sales';
import { api, expectError } from '../support/http';
import { outbox } from '../support/outbox';
import { startTestApp, TestApp } from '../support/test-app';
import { pricingPolicyRowExists } from './support';

const PRODUCT = '01900000-0000-7000-8000-0000000000a1';

describe('pricing policies', () => {
  let app: TestApp;
  let live: ReturnType<typeof api>;

  const priceAsPrimary = (listPrice: string, context: Record<string, string>) =>
    asEntity(app, () => app.get(PricingPoliciesService).priceLine(listPrice, 2, context));

  beforeAll(async () => {
    app = await startTestApp();
    live = api(app, app.seed.entities.primary.keys.live);
  });
  afterAll(() => app.close());

  it('creates, retrieves, lists with filters, updates and hard-deletes, emitting events', async () => {
    const account = (await live.post('/v1/accounts').send({ name: 'Priced' }).expect(201)).body;
    const created = await live
      .post('/v1/pricing-policies')
      .send({
        name: 'VIP',
        kind: 'percentage_off',
        value: 12.5,
        account_id: account.id,
        product_id: PRODUCT,
        priority: 3,
      })
      .expect(201);
    expect(created.body).toMatchObject({
      object: 'pricing_policy',
      kind: 'percentage_off',
      value: 12.5,
      account_id: account.id,
      product_id: PRODUCT,
      product_category_id: null,
      priority: 3,
      active: true,
      starts_at: null,
      ends_at: null,
    });
    const id = created.body.id as string;
    expect((await live.get(`/v1/pricing-policies/${id}`).expect(200)).body).toEqual(created.body);
    const expanded = (await live.get(`/v1/pricing-policies/${id}?expand[]=account.payment_terms`).expect(200))
      .body;
    expect(expanded.account).toMatchObject({ id: account.id, object: 'account', payment_terms: null });
    const filtered = (await live.get(`/v1/pricing-policies?account_id=${account.id}`).expect(200)).body.data;
    expect(filtered.map((p: { id: string }) => p.id)).toEqual([id]);
    expect(
      (await live.get(`/v1/pricing-policies?active=false&account_id=${account.id}`).expect(200)).body.data,
    ).toEqual([]);

    expect(
      (await priceAsPrimary('40', { accountId: account.id, productId: PRODUCT })).unitPrice.toString(),
    ).toBe('35');
    const updated = await live
      .patch(`/v1/pricing-policies/${id}`)
      .send({ starts_at: '2020-01-01T00:00:00.000Z', ends_at: '2099-01-01T00:00:00Z', value: 50 })
      .expect(200);
    expect(updated.body).toMatchObject({
      starts_at: '2020-01-01T00:00:00.000Z',
      ends_at: '2099-01-01T00:00:00.000Z',
      value: 50,
    });
    expect(
      (await priceAsPrimary('40', { accountId: account.id, productId: PRODUCT })).lineTotal.toString(),
    ).toBe('40');

    expect((await live.delete(`/v1/pricing-policies/${id}`).expect(200)).body).toEqual({
      id,
      object: 'pricing_policy',
      deleted: true,
    });
    expectError(await live.get(`/v1/pricing-policies/${id}`), 404, 'not_found');
    expectError(await live.patch(`/v1/pricing-policies/${id}`).send({ value: 1 }), 404, 'not_found');
    expectError(await live.delete(`/v1/pricing-policies/${id}`), 404, 'not_found');
    const after = await priceAsPrimary('40', { accountId: account.id, productId: PRODUCT });
    expect(after.appliedPolicyId).toBeNull();
    expect(after.unitPrice.toString()).toBe('40');
    // Deleted from storage, not only hidden: no route can tell.
    expect(await pricingPolicyRowExists(app, id)).toBe(false);
    expect(await outbox(app).typesOf(id)).toEqual([
      'product.pricing_policy.created',
      'product.pricing_policy.updated',
      'product.pricing_policy.deleted',
    ]);
    await expectEvent(app, 'product.pricing_policy.created', {
      id,
      name: 'VIP',
      kind: 'percentage_off',
      value: 12.5,
      account_id: account.id,
    });
    await expectEvent(
      app,
      'product.pricing_policy.updated',
      { id, value: 50 },
      { previous: { value: 12.5 } },
    );
    await expectEvent(app, 'product.pricing_policy.deleted', { id, name: 'VIP' });
  });

  it('validates bodies and queries with param', async () => {
    const post = (body: Record<string, unknown>) =>
      live.post('/v1/pricing-policies').send({ name: 'p', kind: 'amount_off', value: 1, ...body });
    expectError(
      await live.post('/v1/pricing-policies').send({ kind: 'amount_off', value: 1 }),
      400,
      'parameter_missing',
      { param: 'name' },
    );
    expectError(await post({ kind: 'bogo' }), 400, 'parameter_invalid', { param: 'kind' });
    expectError(await post({ value: -1 }), 400, 'parameter_invalid', { param: 'value' });
    expectError(await post({ value: 1.23456 }), 400, 'parameter_invalid', { param: 'value' });
    expectError(await post({ kind: 'percentage_off', value: 101 }), 400, 'parameter_invalid', {
      param: 'value',
    });
    expectError(await post({ product_id: 'abc' }), 400, 'parameter_invalid', { param: 'product_id' });
    expectError(
      await post({ account_id: '01900000-0000-7000-8000-000000000000' }),
      400,
      'parameter_invalid',
      { param: 'account_id' },
    );
    expectError(await post({ starts_at: 'tomorrow' }), 400, 'parameter_invalid', { param: 'starts_at' });
    expectError(
      await post({ starts_at: '2030-01-01T00:00:00Z', ends_at: '2029-01-01T00:00:00Z' }),
      400,
      'parameter_invalid',
      { param: 'ends_at' },
    );
    expectError(await post({ priority: 1.5 }), 400, 'parameter_invalid', { param: 'priority' });
    expectError(await post({ discount: 5 }), 400, 'parameter_unknown', { param: 'discount' });
    const policy = (await post({}).expect(201)).body;
    expectError(
      await live.patch(`/v1/pricing-policies/${policy.id}`).send({ kind: null }),
      400,
      'parameter_invalid',
      { param: 'kind' },
    );
    expectError(await live.get('/v1/pricing-policies?active=yes'), 400, 'parameter_invalid', {
      param: 'active',
    });
    expectError(await live.get('/v1/pricing-policies?account_id=1'), 400, 'parameter_invalid', {
      param: 'account_id',
    });
  });

  it('answers 404 across modes and entities and needs products scopes', async () => {
    const { pricing_policy_id } = app.seed.fixtures as { pricing_policy_id: string };
    expectError(
      await api(app, app.seed.entities.primary.keys.test).get(`/v1/pricing-policies/${pricing_policy_id}`),
      404,
      'not_found',
    );
    const foreign = api(app, app.seed.entities.secondary.keys.live);
    expectError(await foreign.get(`/v1/pricing-policies/${pricing_policy_id}`), 404, 'not_found');
    expectError(await foreign.delete(`/v1/pricing-policies/${pricing_policy_id}`), 404, 'not_found');
    await live.get(`/v1/pricing-policies/${pricing_policy_id}`).expect(200);
    const readOnly = api(app, app.seed.entities.primary.keys.read_only);
    await readOnly.get('/v1/pricing-policies').expect(200);
    expectError(
      await readOnly.delete(`/v1/pricing-policies/${pricing_policy_id}`),
      403,
      'insufficient_scope',
      { required: 'products:write' },
    );
    expectError(
      await api(app, app.seed.entities.primary.keys.orders_only).get('/v1/pricing-policies'),
      403,
      'insufficient_scope',
      {
        required: 'products:read',
      },
    );
  });
});
