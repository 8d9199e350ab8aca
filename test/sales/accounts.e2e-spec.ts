import { AccountRepository } from '#contexts/sales';
import { asEntity } from '../support/as-entity';
import { expectEvent } from '../support/expect-event';
import { api, expectError } from '../support/http';
import { outbox } from '../support/outbox';
import { startTestApp, TestApp } from '../support/test-app';

describe('accounts', () => {
  let app: TestApp;
  let live: ReturnType<typeof api>;

  const eventsOf = (id: string) => outbox(app).eventsOf(id);

  beforeAll(async () => {
    app = await startTestApp();
    live = api(app, app.seed.entities.primary.keys.live);
  });
  afterAll(() => app.close());

  it('creates with defaults, retrieves, updates with the specific events, and expands payment_terms', async () => {
    const created = await live
      .post('/v1/accounts')
      .send({ name: ' Acme ', email: 'Buyer@Acme.Example', metadata: { erp: 'C-1' } })
      .expect(201);
    expect(created.body).toMatchObject({
      object: 'account',
      name: 'Acme',
      email: 'buyer@acme.example',
      currency: 'USD',
      credit_limit: null,
      payment_terms_id: null,
      status: 'active',
      deleted: false,
      metadata: { erp: 'C-1' },
      livemode: true,
    });
    const id = created.body.id as string;
    expect((await live.get(`/v1/accounts/${id}`).expect(200)).body).toEqual(created.body);

    const term = (
      await live.post('/v1/payment-terms').send({ name: 'Net 30', code: 'NET30', net_days: 30 }).expect(201)
    ).body;
    const updated = await live
      .patch(`/v1/accounts/${id}`)
      .send({
        credit_limit: 2500.5,
        payment_terms_id: term.id,
        currency: 'eur',
        metadata: { erp: '', tier: 'gold' },
      })
      .expect(200);
    expect(updated.body).toMatchObject({
      credit_limit: 2500.5,
      payment_terms_id: term.id,
      currency: 'EUR',
      metadata: { tier: 'gold' },
    });
    // The exact stored decimal (numeric(19,4)), as the account repository reads it: the API answers JSON numbers.
    const stored = (await asEntity(app, () => app.get(AccountRepository).findById(id)))!;
    expect(stored.creditLimit?.toFixed(4)).toBe('2500.5000');

    const events = await eventsOf(id);
    expect(events.map((e) => e.type)).toEqual([
      'account.created',
      'account.updated',
      'account.credit_limit.updated',
      'account.terms.updated',
    ]);
    expect(events[2].data.previous_attributes).toEqual({ credit_limit: null });
    expect(events[3].data.previous_attributes).toEqual({ payment_terms_id: null });
    await expectEvent(app, 'account.created', {
      id,
      name: 'Acme',
      email: 'buyer@acme.example',
      credit_limit: null,
      metadata: { erp: 'C-1' },
    });
    await expectEvent(
      app,
      'account.credit_limit.updated',
      { id, credit_limit: 2500.5 },
      { previous: { credit_limit: null } },
    );
    await expectEvent(
      app,
      'account.terms.updated',
      { id, payment_terms_id: term.id },
      { previous: { payment_terms_id: null } },
    );

    // A no-op update emits nothing; a name change emits only account.updated.
    await live.patch(`/v1/accounts/${id}`).send({ credit_limit: 2500.5 }).expect(200);
    await live.patch(`/v1/accounts/${id}`).send({ name: 'Acme Ltd' }).expect(200);
    expect((await eventsOf(id)).map((e) => e.type).slice(4)).toEqual(['account.updated']);
    await expectEvent(app, 'account.updated', { id, name: 'Acme Ltd' }, { previous: { name: 'Acme' } });

    const expanded = await live.get(`/v1/accounts/${id}?expand[]=payment_terms`).expect(200);
    expect(expanded.body.payment_terms).toMatchObject({ id: term.id, object: 'payment_term', net_days: 30 });
    const listed = await live.get(`/v1/accounts?expand[]=payment_terms&email=BUYER@acme.example`).expect(200);
    expect(listed.body.data).toHaveLength(1);
    expect(listed.body.data[0].payment_terms.id).toBe(term.id);
    expectError(await live.get(`/v1/accounts/${id}?expand[]=owner`), 400, 'invalid_expand', {
      param: 'expand[0]',
    });
    // A payment term in use cannot be deleted.
    expectError(await live.delete(`/v1/payment-terms/${term.id}`), 409, 'resource_conflict');
  });

  it('validates bodies and queries with param', async () => {
    expectError(await live.post('/v1/accounts').send({}), 400, 'parameter_missing', { param: 'name' });
    expectError(
      await live.post('/v1/accounts').send({ name: 'x', email: 'nope' }),
      400,
      'parameter_invalid',
      { param: 'email' },
    );
    expectError(
      await live.post('/v1/accounts').send({ name: 'x', currency: 'EURO' }),
      400,
      'parameter_invalid',
      { param: 'currency' },
    );
    expectError(
      await live.post('/v1/accounts').send({ name: 'x', credit_limit: -1 }),
      400,
      'parameter_invalid',
      { param: 'credit_limit' },
    );
    expectError(
      await live.post('/v1/accounts').send({ name: 'x', credit_limit: 1.00001 }),
      400,
      'parameter_invalid',
      { param: 'credit_limit' },
    );
    expectError(
      await live.post('/v1/accounts').send({ name: 'x', credit_limit: '5' }),
      400,
      'parameter_invalid',
      { param: 'credit_limit' },
    );
    expectError(
      await live.post('/v1/accounts').send({ name: 'x', payment_terms_id: 'abc' }),
      400,
      'parameter_invalid',
      { param: 'payment_terms_id' },
    );
    expectError(
      await live
        .post('/v1/accounts')
        .send({ name: 'x', payment_terms_id: '01900000-0000-7000-8000-000000000000' }),
      400,
      'parameter_invalid',
      { param: 'payment_terms_id' },
    );
    expectError(
      await live.post('/v1/accounts').send({ name: 'x', status: 'deleted' }),
      400,
      'parameter_unknown',
      { param: 'status' },
    );
    expectError(
      await live.post('/v1/accounts').send({ name: 'x', metadata: { k: 5 } }),
      400,
      'parameter_invalid',
      { param: 'metadata.k' },
    );
    const account = (await live.post('/v1/accounts').send({ name: 'valid' }).expect(201)).body;
    expectError(
      await live.patch(`/v1/accounts/${account.id}`).send({ name: null }),
      400,
      'parameter_invalid',
      { param: 'name' },
    );
    expectError(await live.get('/v1/accounts?include_deleted=maybe'), 400, 'parameter_invalid', {
      param: 'include_deleted',
    });
    expectError(await live.get('/v1/accounts?limit=101'), 400, 'parameter_invalid', { param: 'limit' });
    expectError(await live.post(`/v1/accounts/${account.id}/merge`).send({}), 400, 'parameter_missing', {
      param: 'source_account_id',
    });
  });

  it('soft-deletes: hidden from lists unless include_deleted, retrievable with deleted: true, refuses changes with 409', async () => {
    const account = (await live.post('/v1/accounts').send({ name: 'Leaving' }).expect(201)).body;
    expect((await live.delete(`/v1/accounts/${account.id}`).expect(200)).body).toEqual({
      id: account.id,
      object: 'account',
      deleted: true,
    });
    const got = (await live.get(`/v1/accounts/${account.id}`).expect(200)).body;
    expect(got).toMatchObject({ status: 'deleted', deleted: true });
    expect(got.deleted_at).toMatch(/Z$/);
    const ids = async (q: string) =>
      (await live.get(`/v1/accounts?limit=100${q}`).expect(200)).body.data.map((a: { id: string }) => a.id);
    expect(await ids('')).not.toContain(account.id);
    expect(await ids('&include_deleted=true')).toContain(account.id);
    expectError(await live.patch(`/v1/accounts/${account.id}`).send({ name: 'x' }), 409, 'invalid_state', {
      type: 'conflict',
    });
    expect((await live.delete(`/v1/accounts/${account.id}`)).body.hint).toMatch(/deleted/);
    expectError(await live.delete(`/v1/accounts/${account.id}`), 409, 'invalid_state');
    expectError(
      await live
        .post(`/v1/accounts/${account.id}/addresses`)
        .send({ type: 'billing', line1: 'a', city: 'b', country: 'US' }),
      409,
      'invalid_state',
    );
    expect((await eventsOf(account.id)).map((e) => e.type)).toEqual(['account.created', 'account.deleted']);
    await expectEvent(app, 'account.deleted', {
      id: account.id,
      name: 'Leaving',
      status: 'deleted',
      deleted: true,
    });
  });

  it('manages addresses with one default per type', async () => {
    const account = (await live.post('/v1/accounts').send({ name: 'Addr Co' }).expect(201)).body;
    const base = `/v1/accounts/${account.id}/addresses`;
    const address = (body: Record<string, unknown>) =>
      live.post(base).send({ line1: '1 St', city: 'Town', country: 'us', ...body });
    const b1 = (await address({ type: 'billing' }).expect(201)).body;
    expect(b1).toMatchObject({
      object: 'account_address',
      account_id: account.id,
      type: 'billing',
      country: 'US',
      is_default: true,
      line2: null,
    });
    const s1 = (await address({ type: 'shipping' }).expect(201)).body;
    expect(s1.is_default).toBe(true);
    const b2 = (await address({ type: 'billing' }).expect(201)).body;
    expect(b2.is_default).toBe(false);
    const b3 = (await address({ type: 'billing', is_default: true }).expect(201)).body;
    expect(b3.is_default).toBe(true);
    const defaults = async () =>
      (await live.get(`${base}?limit=100`).expect(200)).body.data
        .filter((a: { is_default: boolean }) => a.is_default)
        .map((a: { id: string; type: string }) => `${a.type}:${a.id}`)
        .sort();
    expect(await defaults()).toEqual([`billing:${b3.id}`, `shipping:${s1.id}`].sort());

    expectError(await live.patch(`${base}/${b3.id}`).send({ is_default: false }), 400, 'parameter_invalid', {
      param: 'is_default',
    });
    await live.patch(`${base}/${b1.id}`).send({ is_default: true, city: 'Elsewhere' }).expect(200);
    expect(await defaults()).toEqual([`billing:${b1.id}`, `shipping:${s1.id}`].sort());
    // Moving the billing default to shipping: billing promotes its newest, shipping keeps its default.
    const moved = (await live.patch(`${base}/${b1.id}`).send({ type: 'shipping' }).expect(200)).body;
    expect(moved).toMatchObject({ type: 'shipping', is_default: false });
    expect(await defaults()).toEqual([`billing:${b3.id}`, `shipping:${s1.id}`].sort());
    // Removing the default promotes the most recent other address of that type.
    expect((await live.delete(`${base}/${b3.id}`).expect(200)).body).toEqual({
      id: b3.id,
      object: 'account_address',
      deleted: true,
    });
    expect(await defaults()).toEqual([`billing:${b2.id}`, `shipping:${s1.id}`].sort());
    expectError(await live.get(`${base}/${b3.id}`), 404, 'not_found');
    expectError(await address({ type: 'home' }), 400, 'parameter_invalid', { param: 'type' });
    expectError(await address({ type: 'billing', country: 'USA' }), 400, 'parameter_invalid', {
      param: 'country',
    });
    expectError(await live.patch(`${base}/${b2.id}`).send({ city: null }), 400, 'parameter_invalid', {
      param: 'city',
    });
    expectError(await live.patch(`${base}/${b2.id}`).send({ zip: '1' }), 400, 'parameter_unknown', {
      param: 'zip',
    });
    // An address reached through another account's path is 404.
    const other = (await live.post('/v1/accounts').send({ name: 'Other' }).expect(201)).body;
    expectError(await live.get(`/v1/accounts/${other.id}/addresses/${b2.id}`), 404, 'not_found');
    expectError(
      await live.patch(`/v1/accounts/${other.id}/addresses/${b2.id}`).send({ city: 'x' }),
      404,
      'not_found',
    );
    const types = (await eventsOf(b1.id)).map((e) => e.type);
    expect(types[0]).toBe('account.address.added');
    expect(types).toContain('account.address.updated');
    expect((await eventsOf(b3.id)).map((e) => e.type)).toContain('account.address.removed');
    expect((await eventsOf(b2.id)).map((e) => e.type)).toEqual([
      'account.address.added',
      'account.address.updated',
    ]);
    await expectEvent(app, 'account.address.added', {
      id: b1.id,
      account_id: account.id,
      type: 'billing',
      line1: '1 St',
      country: 'US',
      is_default: true,
    });
    await expectEvent(
      app,
      'account.address.updated',
      { id: b1.id, account_id: account.id, type: 'shipping', is_default: false },
      { previous: { type: 'billing' } },
    );
    await expectEvent(app, 'account.address.removed', { id: b3.id, account_id: account.id, type: 'billing' });
  });

  it('manages contacts with one primary', async () => {
    const account = (await live.post('/v1/accounts').send({ name: 'Contact Co' }).expect(201)).body;
    const base = `/v1/accounts/${account.id}/contacts`;
    const c1 = (
      await live.post(base).send({ name: 'Ann', email: 'ANN@x.example', role: 'buyer' }).expect(201)
    ).body;
    expect(c1).toMatchObject({
      object: 'account_contact',
      email: 'ann@x.example',
      is_primary: true,
      phone: null,
    });
    const c2 = (await live.post(base).send({ name: 'Bob' }).expect(201)).body;
    expect(c2.is_primary).toBe(false);
    expect(
      (await live.patch(`${base}/${c2.id}`).send({ is_primary: true }).expect(200)).body.is_primary,
    ).toBe(true);
    expect((await live.get(`${base}/${c1.id}`).expect(200)).body.is_primary).toBe(false);
    expectError(await live.patch(`${base}/${c2.id}`).send({ is_primary: false }), 400, 'parameter_invalid', {
      param: 'is_primary',
    });
    await live.delete(`${base}/${c2.id}`).expect(200);
    expect((await live.get(`${base}/${c1.id}`).expect(200)).body.is_primary).toBe(true);
    expectError(await live.post(base).send({ name: 'x', email: 'bad' }), 400, 'parameter_invalid', {
      param: 'email',
    });
    expect((await eventsOf(c2.id)).map((e) => e.type)).toEqual([
      'account.contact.added',
      'account.contact.updated',
      'account.contact.removed',
    ]);
    await expectEvent(app, 'account.contact.added', {
      id: c1.id,
      account_id: account.id,
      name: 'Ann',
      email: 'ann@x.example',
      role: 'buyer',
      is_primary: true,
    });
    await expectEvent(
      app,
      'account.contact.updated',
      { id: c2.id, name: 'Bob', is_primary: true },
      { previous: { is_primary: false } },
    );
    await expectEvent(app, 'account.contact.removed', { id: c2.id, account_id: account.id, name: 'Bob' });
  });

  it('merges the source into the target', async () => {
    const target = (await live.post('/v1/accounts').send({ name: 'Target' }).expect(201)).body;
    const source = (await live.post('/v1/accounts').send({ name: 'Source' }).expect(201)).body;
    const tAddr = (
      await live
        .post(`/v1/accounts/${target.id}/addresses`)
        .send({ type: 'billing', line1: 'T', city: 'c', country: 'US' })
        .expect(201)
    ).body;
    const sAddr = (
      await live
        .post(`/v1/accounts/${source.id}/addresses`)
        .send({ type: 'billing', line1: 'S', city: 'c', country: 'US' })
        .expect(201)
    ).body;
    const sShip = (
      await live
        .post(`/v1/accounts/${source.id}/addresses`)
        .send({ type: 'shipping', line1: 'S2', city: 'c', country: 'US' })
        .expect(201)
    ).body;
    const sContact = (await live.post(`/v1/accounts/${source.id}/contacts`).send({ name: 'Sam' }).expect(201))
      .body;
    const pm = (
      await live
        .post(`/v1/accounts/${source.id}/payment-methods`)
        .send({ type: 'other', description: 'cheque' })
        .expect(201)
    ).body;
    const policy = (
      await live
        .post('/v1/pricing-policies')
        .send({ name: 'p', kind: 'amount_off', value: 1, account_id: source.id })
        .expect(201)
    ).body;

    const merged = await live
      .post(`/v1/accounts/${target.id}/merge`)
      .send({ source_account_id: source.id })
      .expect(200);
    expect(merged.body).toMatchObject({ id: target.id, status: 'active' });
    const src = (await live.get(`/v1/accounts/${source.id}`).expect(200)).body;
    expect(src).toMatchObject({ status: 'deleted', deleted: true, merged_into_id: target.id });

    const addresses = (await live.get(`/v1/accounts/${target.id}/addresses`).expect(200)).body.data;
    const byId = new Map(addresses.map((a: { id: string }) => [a.id, a]));
    expect(byId.get(tAddr.id)).toMatchObject({ is_default: true });
    expect(byId.get(sAddr.id)).toMatchObject({ is_default: false, account_id: target.id });
    expect(byId.get(sShip.id)).toMatchObject({ is_default: true });
    expect(
      (await live.get(`/v1/accounts/${target.id}/contacts/${sContact.id}`).expect(200)).body.is_primary,
    ).toBe(true);
    expect(
      (await live.get(`/v1/accounts/${target.id}/payment-methods/${pm.id}`).expect(200)).body.is_default,
    ).toBe(true);
    expect((await live.get(`/v1/pricing-policies/${policy.id}`).expect(200)).body.account_id).toBe(target.id);
    expect((await live.get(`/v1/accounts/${source.id}/addresses`).expect(200)).body.data).toEqual([]);
    expect((await eventsOf(target.id)).map((e) => e.type)).toEqual(['account.created', 'account.merged']);
    await expectEvent(app, 'account.merged', { id: target.id, name: 'Target', status: 'active' });
    expect((await eventsOf(source.id)).map((e) => e.type)).toEqual(['account.created', 'account.deleted']);

    expectError(
      await live.post(`/v1/accounts/${target.id}/merge`).send({ source_account_id: source.id }),
      409,
      'invalid_state',
      {
        param: 'source_account_id',
      },
    );
    expectError(
      await live.post(`/v1/accounts/${source.id}/merge`).send({ source_account_id: target.id }),
      409,
      'invalid_state',
    );
    expectError(
      await live.post(`/v1/accounts/${target.id}/merge`).send({ source_account_id: target.id }),
      400,
      'parameter_invalid',
      {
        param: 'source_account_id',
      },
    );
    expectError(
      await live
        .post(`/v1/accounts/${target.id}/merge`)
        .send({ source_account_id: '01900000-0000-7000-8000-000000000000' }),
      404,
      'not_found',
      { param: 'source_account_id' },
    );
    const foreign = (
      await api(app, app.seed.entities.secondary.keys.live)
        .post('/v1/accounts')
        .send({ name: 'Foreign' })
        .expect(201)
    ).body;
    expectError(
      await live.post(`/v1/accounts/${target.id}/merge`).send({ source_account_id: foreign.id }),
      404,
      'not_found',
    );
  });

  it('answers 404 across modes and entities and needs accounts scopes', async () => {
    const account = (await live.post('/v1/accounts').send({ name: 'Isolated' }).expect(201)).body;
    const test = api(app, app.seed.entities.primary.keys.test);
    const other = api(app, app.seed.entities.secondary.keys.live);
    expectError(await test.get(`/v1/accounts/${account.id}`), 404, 'not_found');
    expectError(await other.get(`/v1/accounts/${account.id}`), 404, 'not_found');
    expectError(await other.patch(`/v1/accounts/${account.id}`).send({ name: 'x' }), 404, 'not_found');
    expectError(await other.delete(`/v1/accounts/${account.id}`), 404, 'not_found');
    expectError(await test.get(`/v1/accounts/${account.id}/addresses`), 404, 'not_found');
    expectError(
      await other.post(`/v1/accounts/${account.id}/contacts`).send({ name: 'x' }),
      404,
      'not_found',
    );
    const testAccount = (await test.post('/v1/accounts').send({ name: 'Test' }).expect(201)).body;
    expect(testAccount.livemode).toBe(false);
    expectError(await live.get(`/v1/accounts/${testAccount.id}`), 404, 'not_found');
    const readOnly = api(app, app.seed.entities.primary.keys.read_only);
    await readOnly.get('/v1/accounts').expect(200);
    await readOnly.get(`/v1/accounts/${account.id}/addresses`).expect(200);
    expectError(await readOnly.post('/v1/accounts').send({ name: 'x' }), 403, 'insufficient_scope', {
      required: 'accounts:write',
    });
    expectError(
      await readOnly.post(`/v1/accounts/${account.id}/merge`).send({ source_account_id: account.id }),
      403,
      'insufficient_scope',
    );
    expectError(
      await api(app, app.seed.entities.primary.keys.orders_only).get('/v1/accounts'),
      403,
      'insufficient_scope',
      {
        required: 'accounts:read',
      },
    );
  });

  it('honours If-Match on PATCH and DELETE', async () => {
    const account = (await live.post('/v1/accounts').send({ name: 'Etag' }).expect(201)).body;
    const etag = (await live.get(`/v1/accounts/${account.id}`).expect(200)).headers.etag as string;
    await live.patch(`/v1/accounts/${account.id}`).set('If-Match', etag).send({ name: 'Etag 2' }).expect(200);
    expectError(
      await live.patch(`/v1/accounts/${account.id}`).set('If-Match', etag).send({ name: 'Etag 3' }),
      412,
      'precondition_failed',
    );
    expectError(
      await live.delete(`/v1/accounts/${account.id}`).set('If-Match', etag),
      412,
      'precondition_failed',
    );
  });

  it('serves the entity-prefixed alias and refuses a foreign entity id', async () => {
    const primary = app.seed.entities.primary.id;
    const secondary = app.seed.entities.secondary.id;
    const created = await live.post(`/v1/entities/${primary}/accounts`).send({ name: 'Alias' }).expect(201);
    await live.get(`/v1/entities/${primary}/accounts/${created.body.id}/addresses`).expect(200);
    expectError(
      await live.get(`/v1/entities/${secondary}/accounts/${created.body.id}`),
      403,
      'entity_isolation_violation',
    );
  });

  it('seeds the sales fixtures', async () => {
    const { account_id, payment_method_ids, location_id, pricing_policy_id } = app.seed.fixtures as Record<
      string,
      string & string[]
    >;
    const methods = (await live.get(`/v1/accounts/${account_id}/payment-methods`).expect(200)).body.data;
    expect(methods.map((m: { id: string }) => m.id).sort()).toEqual([...payment_method_ids].sort());
    expect(methods.find((m: { id: string }) => m.id === payment_method_ids[0]).is_default).toBe(true);
    await live.get(`/v1/locations/${location_id}`).expect(200);
    const policy = (await live.get(`/v1/pricing-policies/${pricing_policy_id}?expand[]=account`).expect(200))
      .body;
    expect(policy.account.id).toBe(account_id);
  });
});
