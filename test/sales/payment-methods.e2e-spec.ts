import { expectEvent } from '../support/expect-event';
import { api, expectError } from '../support/http';
import { outbox } from '../support/outbox';
import { startTestApp, TestApp } from '../support/test-app';
import { makeEveryPaymentMethodDefault } from './support';

const card = (last4: string) => ({
  type: 'card',
  card: { brand: 'visa', last4, exp_month: 12, exp_year: 2099 },
});

describe('payment methods', () => {
  let app: TestApp;
  let live: ReturnType<typeof api>;

  /** Exactly one default whenever the account has methods, none otherwise; returns its id. */
  const expectOneDefault = async (accountId: string): Promise<string | null> => {
    const methods = (await live.get(`/v1/accounts/${accountId}/payment-methods?limit=100`).expect(200)).body
      .data as { id: string; is_default: boolean }[];
    const defaults = methods.filter((m) => m.is_default);
    expect(defaults.length).toBe(methods.length > 0 ? 1 : 0);
    return defaults[0]?.id ?? null;
  };

  beforeAll(async () => {
    app = await startTestApp();
    live = api(app, app.seed.entities.primary.keys.live);
  });
  afterAll(() => app.close());

  it('keeps exactly one default through create, switch and delete', async () => {
    const account = (await live.post('/v1/accounts').send({ name: 'Payer' }).expect(201)).body;
    const base = `/v1/accounts/${account.id}/payment-methods`;
    expect(await expectOneDefault(account.id)).toBeNull();

    const first = (await live.post(base).send(card('4242')).expect(201)).body;
    expect(first).toMatchObject({
      object: 'payment_method',
      account_id: account.id,
      type: 'card',
      card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2099 },
      bank_account: null,
      is_default: true,
    });
    expect(await expectOneDefault(account.id)).toBe(first.id);
    const second = (
      await live
        .post(base)
        .send({ type: 'bank_account', bank_account: { bank_name: 'B', last4: '0001' } })
        .expect(201)
    ).body;
    expect(second).toMatchObject({
      is_default: false,
      card: null,
      bank_account: { bank_name: 'B', last4: '0001' },
    });
    const third = (
      await live.post(base).send({ type: 'other', description: 'cheque', is_default: true }).expect(201)
    ).body;
    expect(third.is_default).toBe(true);
    expect(await expectOneDefault(account.id)).toBe(third.id);

    const switched = await live.patch(`${base}/${second.id}`).send({ is_default: true }).expect(200);
    expect(switched.body).toMatchObject({ id: second.id, is_default: true });
    expect(await expectOneDefault(account.id)).toBe(second.id);
    expect((await live.get(`${base}/${third.id}`).expect(200)).body.is_default).toBe(false);
    // Setting the current default again changes nothing.
    await live.patch(`${base}/${second.id}`).send({ is_default: true }).expect(200);
    expect(await expectOneDefault(account.id)).toBe(second.id);

    expectError(
      await live.patch(`${base}/${first.id}`).send({ is_default: false }),
      400,
      'parameter_invalid',
      { param: 'is_default' },
    );
    expectError(
      await live.patch(`${base}/${second.id}`).send({ is_default: false }),
      400,
      'parameter_invalid',
      { param: 'is_default' },
    );
    expectError(await live.patch(`${base}/${first.id}`).send({}), 400, 'parameter_missing', {
      param: 'is_default',
    });
    expectError(
      await live.patch(`${base}/${first.id}`).send({ is_default: 'true' }),
      400,
      'parameter_invalid',
      { param: 'is_default' },
    );
    expectError(
      await live.patch(`${base}/${first.id}`).send({ is_default: true, nickname: 'x' }),
      400,
      'parameter_unknown',
      { param: 'nickname' },
    );
    expect(await expectOneDefault(account.id)).toBe(second.id);

    // Deleting the default promotes the most recent other method (third, newer than first).
    expect((await live.delete(`${base}/${second.id}`).expect(200)).body).toEqual({
      id: second.id,
      object: 'payment_method',
      deleted: true,
    });
    expect(await expectOneDefault(account.id)).toBe(third.id);
    await live.delete(`${base}/${first.id}`).expect(200);
    expect(await expectOneDefault(account.id)).toBe(third.id);
    await live.delete(`${base}/${third.id}`).expect(200);
    expect(await expectOneDefault(account.id)).toBeNull();
    expectError(await live.get(`${base}/${third.id}`), 404, 'not_found');
    expectError(await live.delete(`${base}/${third.id}`), 404, 'not_found');

    await expectEvent(app, 'payment.method.created', {
      id: first.id,
      account_id: account.id,
      type: 'card',
      card: { brand: 'visa', last4: '4242' },
      is_default: true,
    });
    await expectEvent(
      app,
      'payment.method.default_changed',
      { id: second.id, account_id: account.id, type: 'bank_account', is_default: true },
      { previous: { is_default: false } },
    );
    await expectEvent(
      app,
      'payment.method.updated',
      { id: third.id, account_id: account.id, is_default: false },
      { previous: { is_default: true } },
    );
    await expectEvent(app, 'payment.method.deleted', { id: second.id, account_id: account.id });
    const events = (await outbox(app).all()).filter((e) => e.data.object.account_id === account.id);
    const types = events.map((e) => `${e.type}:${e.data.object.id as string}`);
    const demotions = events.filter((e) => e.type === 'payment.method.updated');
    expect(demotions.map((e) => [e.data.object.is_default, e.data.previous_attributes])).toEqual([
      [false, { is_default: true }],
      [false, { is_default: true }],
    ]);
    expect(types).toEqual([
      `payment.method.created:${first.id}`,
      `payment.method.created:${second.id}`,
      `payment.method.created:${third.id}`,
      `payment.method.default_changed:${third.id}`,
      // The method that held the default until another took it changed too.
      `payment.method.updated:${first.id}`,
      `payment.method.default_changed:${second.id}`,
      `payment.method.updated:${third.id}`,
      `payment.method.deleted:${second.id}`,
      `payment.method.default_changed:${third.id}`,
      `payment.method.deleted:${first.id}`,
      `payment.method.deleted:${third.id}`,
    ]);
  });

  it('keeps one default under concurrent switches, creates and deletes', async () => {
    const account = (await live.post('/v1/accounts').send({ name: 'Race' }).expect(201)).body;
    const base = `/v1/accounts/${account.id}/payment-methods`;
    const created = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        live.post(base).send({ ...card(String(1000 + i)), is_default: i % 2 === 0 }),
      ),
    );
    expect(created.map((r) => r.status)).toEqual(Array(6).fill(201));
    await expectOneDefault(account.id);
    const ids = created.map((r) => r.body.id as string);
    const results = await Promise.all([
      ...ids.map((id) => live.patch(`${base}/${id}`).send({ is_default: true })),
      live.delete(`${base}/${ids[0]}`),
      live.delete(`${base}/${ids[3]}`),
    ]);
    expect(results.every((r) => r.status === 200 || r.status === 404)).toBe(true);
    const remaining = (await live.get(base).expect(200)).body.data;
    expect(remaining).toHaveLength(4);
    expect(remaining.filter((m: { is_default: boolean }) => m.is_default)).toHaveLength(1);
    await expectOneDefault(account.id);
  });

  it('the partial unique index refuses a second default', async () => {
    const { account_id } = app.seed.fixtures as { account_id: string };
    // The one-default index is a storage guarantee: only a write past the API can try to break it.
    await expect(makeEveryPaymentMethodDefault(app, account_id)).rejects.toThrow(
      /payment_methods_one_default/,
    );
  });

  it('validates bodies: type-specific details, never a card number, unknown fields', async () => {
    const account = (await live.post('/v1/accounts').send({ name: 'Validation' }).expect(201)).body;
    const base = `/v1/accounts/${account.id}/payment-methods`;
    expectError(await live.post(base).send({}), 400, 'parameter_missing', { param: 'type' });
    expectError(await live.post(base).send({ type: 'crypto' }), 400, 'parameter_invalid', { param: 'type' });
    expectError(await live.post(base).send({ type: 'card' }), 400, 'parameter_missing', { param: 'card' });
    expectError(await live.post(base).send({ type: 'bank_account' }), 400, 'parameter_missing', {
      param: 'bank_account',
    });
    expectError(await live.post(base).send({ ...card('4242'), type: 'other' }), 400, 'parameter_invalid', {
      param: 'card',
    });
    expectError(
      await live.post(base).send({
        type: 'card',
        card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2099, number: '4242424242424242' },
      }),
      400,
      'parameter_unknown',
      { param: 'card.number' },
    );
    expectError(
      await live.post(base).send({ ...card('4242'), card_number: '4242424242424242' }),
      400,
      'parameter_unknown',
      { param: 'card_number' },
    );
    expectError(
      await live
        .post(base)
        .send({ type: 'card', card: { brand: 'visa', last4: '42424', exp_month: 1, exp_year: 2099 } }),
      400,
      'parameter_invalid',
      {
        param: 'card.last4',
      },
    );
    expectError(
      await live
        .post(base)
        .send({ type: 'card', card: { brand: 'visa', last4: '4242', exp_month: 13, exp_year: 2099 } }),
      400,
      'parameter_invalid',
      {
        param: 'card.exp_month',
      },
    );
    expectError(
      await live
        .post(base)
        .send({ type: 'card', card: { brand: 'visa', last4: '4242', exp_month: 1, exp_year: 2001 } }),
      400,
      'parameter_invalid',
      {
        param: 'card.exp_year',
      },
    );
    expectError(
      await live.post(base).send({ ...card('4242'), metadata: { a: 1 } }),
      400,
      'parameter_invalid',
      { param: 'metadata.a' },
    );
    expectError(await live.get(`${base}?limit=abc`), 400, 'parameter_invalid', { param: 'limit' });
    expect((await live.get(base).expect(200)).body.data).toEqual([]);
  });

  it('refuses changes on a deleted account with 409 invalid_state', async () => {
    const account = (await live.post('/v1/accounts').send({ name: 'Gone' }).expect(201)).body;
    const pm = (await live.post(`/v1/accounts/${account.id}/payment-methods`).send(card('1111')).expect(201))
      .body;
    await live.delete(`/v1/accounts/${account.id}`).expect(200);
    const res = await live.post(`/v1/accounts/${account.id}/payment-methods`).send(card('2222'));
    expectError(res, 409, 'invalid_state');
    expect(res.body.hint).toMatch(/'deleted'/);
    expectError(
      await live.delete(`/v1/accounts/${account.id}/payment-methods/${pm.id}`),
      409,
      'invalid_state',
    );
    await live.get(`/v1/accounts/${account.id}/payment-methods/${pm.id}`).expect(200);
  });

  it('answers 404 across accounts, modes and entities, and needs payments scopes', async () => {
    const { account_id, payment_method_ids } = app.seed.fixtures as {
      account_id: string;
      payment_method_ids: string[];
    };
    const other = (await live.post('/v1/accounts').send({ name: 'Elsewhere' }).expect(201)).body;
    expectError(
      await live.get(`/v1/accounts/${other.id}/payment-methods/${payment_method_ids[0]}`),
      404,
      'not_found',
    );
    expectError(
      await live
        .patch(`/v1/accounts/${other.id}/payment-methods/${payment_method_ids[1]}`)
        .send({ is_default: true }),
      404,
      'not_found',
    );
    const test = api(app, app.seed.entities.primary.keys.test);
    const foreign = api(app, app.seed.entities.secondary.keys.live);
    expectError(
      await test.get(`/v1/accounts/${account_id}/payment-methods/${payment_method_ids[0]}`),
      404,
      'not_found',
    );
    expectError(await foreign.get(`/v1/accounts/${account_id}/payment-methods`), 404, 'not_found');
    expectError(
      await foreign
        .patch(`/v1/accounts/${account_id}/payment-methods/${payment_method_ids[1]}`)
        .send({ is_default: true }),
      404,
      'not_found',
    );
    expectError(await live.get(`/v1/accounts/${account_id}/payment-methods/not-a-uuid`), 404, 'not_found');
    const expanded = await live
      .get(`/v1/accounts/${account_id}/payment-methods?expand[]=account`)
      .expect(200);
    expect(expanded.body.data.every((m: { account: { id: string } }) => m.account.id === account_id)).toBe(
      true,
    );
    const one = await live
      .get(`/v1/accounts/${account_id}/payment-methods/${payment_method_ids[0]}?expand[]=account`)
      .expect(200);
    expect(one.body.account).toMatchObject({ id: account_id, object: 'account' });
    const readOnly = api(app, app.seed.entities.primary.keys.read_only);
    await readOnly.get(`/v1/accounts/${account_id}/payment-methods`).expect(200);
    expectError(
      await readOnly
        .patch(`/v1/accounts/${account_id}/payment-methods/${payment_method_ids[1]}`)
        .send({ is_default: true }),
      403,
      'insufficient_scope',
      {
        required: 'payments:write',
      },
    );
    expectError(
      await api(app, app.seed.entities.primary.keys.orders_only).get(
        `/v1/accounts/${account_id}/payment-methods`,
      ),
      403,
      'insufficient_scope',
      {
        required: 'payments:read',
      },
    );
  });
});
