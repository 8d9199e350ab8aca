import { expectEvent } from '../support/expect-event';
import { api, expectError } from '../support/http';
import { outbox } from '../support/outbox';
import { startTestApp, TestApp } from '../support/test-app';

interface Case {
  path: string;
  object: string;
  scope: string;
  create: Record<string, unknown>;
  update: Record<string, unknown>;
  invalid: [Record<string, unknown>, string];
}

const CASES: Case[] = [
  {
    path: 'locations',
    object: 'location',
    scope: 'locations',
    create: {
      name: 'Main warehouse',
      type: 'warehouse',
      address: { line1: '1 Dock Rd', city: 'Reno', country: 'us' },
    },
    update: { type: 'store', address: null },
    invalid: [{ name: 'x', type: 'garage' }, 'type'],
  },
  {
    path: 'payment-terms',
    object: 'payment_term',
    scope: 'payment_terms',
    create: { name: '2/10 net 30', net_days: 30, discount_percent: 2.5, discount_days: 10 },
    update: { net_days: 45 },
    invalid: [{ name: 'x', net_days: -1 }, 'net_days'],
  },
  {
    path: 'units-of-measure',
    object: 'unit_of_measure',
    scope: 'units_of_measure',
    create: { name: 'Kilogram', precision: 3 },
    update: { precision: 2 },
    invalid: [{ name: 'x', precision: 9 }, 'precision'],
  },
  {
    path: 'sales-channels',
    object: 'sales_channel',
    scope: 'sales_channels',
    create: { name: 'Web shop', kind: 'storefront' },
    update: { kind: 'pos' },
    invalid: [{ name: 'x', kind: 'fax' }, 'kind'],
  },
  {
    path: 'pricing-levels',
    object: 'pricing_level',
    scope: 'pricing_levels',
    create: { name: 'Wholesale', percent_adjustment: -12.5 },
    update: { percent_adjustment: 5 },
    invalid: [{ name: 'x', percent_adjustment: -101 }, 'percent_adjustment'],
  },
];

describe('reference lists', () => {
  let app: TestApp;
  let live: ReturnType<typeof api>;

  beforeAll(async () => {
    app = await startTestApp();
    live = api(app, app.seed.entities.primary.keys.live);
  });
  afterAll(() => app.close());

  describe.each(CASES)('/$path', ({ path, object, scope, create, update, invalid }) => {
    const base = `/v1/${path}`;
    let code = 0;
    const nextCode = () => `${object.toUpperCase()}-${++code}`;

    it('creates, retrieves, lists, updates and deletes, emitting setting.* events', async () => {
      const created = await live
        .post(base)
        .send({ ...create, code: nextCode() })
        .expect(201);
      expect(created.body).toMatchObject({ object, livemode: true, name: create.name });
      const id = created.body.id as string;
      expect((await live.get(`${base}/${id}`).expect(200)).body).toEqual(created.body);
      const list = await live.get(`${base}?include_count=true`).expect(200);
      expect(list.body).toMatchObject({ object: 'list', url: base });
      expect(list.body.data.map((r: { id: string }) => r.id)).toContain(id);
      const updated = await live.patch(`${base}/${id}`).send(update).expect(200);
      expect(updated.body).toMatchObject(update);
      expect((await live.delete(`${base}/${id}`).expect(200)).body).toEqual({ id, object, deleted: true });
      expectError(await live.get(`${base}/${id}`), 404, 'not_found');
      expectError(await live.patch(`${base}/${id}`).send(update), 404, 'not_found');
      expectError(await live.delete(`${base}/${id}`), 404, 'not_found');
      const events = await outbox(app).eventsOf(id);
      expect(events.map((e) => e.type)).toEqual(['setting.created', 'setting.updated', 'setting.deleted']);
      expect(Object.keys(events[1].data.previous_attributes ?? {}).sort()).toEqual(
        Object.keys(update).sort(),
      );
      await expectEvent(app, 'setting.created', { id, object, name: create.name });
      await expectEvent(app, 'setting.updated', { id, object, ...update });
      await expectEvent(app, 'setting.deleted', { id, object });
    });

    it('keeps codes unique per entity and mode (409 with param code)', async () => {
      const shared = nextCode();
      const first = (
        await live
          .post(base)
          .send({ ...create, code: shared })
          .expect(201)
      ).body;
      expectError(await live.post(base).send({ ...create, code: shared }), 409, 'resource_conflict', {
        param: 'code',
        type: 'conflict',
      });
      const other = (
        await live
          .post(base)
          .send({ ...create, code: nextCode() })
          .expect(201)
      ).body;
      expectError(await live.patch(`${base}/${other.id}`).send({ code: shared }), 409, 'resource_conflict', {
        param: 'code',
      });
      // The other mode and the other entity may reuse the code.
      await api(app, app.seed.entities.primary.keys.test)
        .post(base)
        .send({ ...create, code: shared })
        .expect(201);
      await api(app, app.seed.entities.secondary.keys.live)
        .post(base)
        .send({ ...create, code: shared })
        .expect(201);
      expect(first.code).toBe(shared);
    });

    it('validates bodies and queries with param', async () => {
      expectError(await live.post(base).send({ ...create }), 400, 'parameter_missing', { param: 'code' });
      expectError(await live.post(base).send({ ...create, code: 'has space' }), 400, 'parameter_invalid', {
        param: 'code',
      });
      expectError(await live.post(base).send({ ...invalid[0], code: nextCode() }), 400, 'parameter_invalid', {
        param: invalid[1],
      });
      expectError(
        await live.post(base).send({ ...create, code: nextCode(), colour: 'red' }),
        400,
        'parameter_unknown',
        { param: 'colour' },
      );
      const record = (
        await live
          .post(base)
          .send({ ...create, code: nextCode() })
          .expect(201)
      ).body;
      expectError(await live.patch(`${base}/${record.id}`).send({ name: null }), 400, 'parameter_invalid', {
        param: 'name',
      });
      expectError(await live.patch(`${base}/${record.id}`).send({ bogus: 1 }), 400, 'parameter_unknown', {
        param: 'bogus',
      });
      expectError(await live.get(`${base}?limit=0`), 400, 'parameter_invalid', { param: 'limit' });
    });

    it('answers 404 across modes and entities, and needs its scopes', async () => {
      const record = (
        await live
          .post(base)
          .send({ ...create, code: nextCode() })
          .expect(201)
      ).body;
      expectError(
        await api(app, app.seed.entities.primary.keys.test).get(`${base}/${record.id}`),
        404,
        'not_found',
      );
      expectError(
        await api(app, app.seed.entities.secondary.keys.live).get(`${base}/${record.id}`),
        404,
        'not_found',
      );
      expectError(
        await api(app, app.seed.entities.secondary.keys.live).delete(`${base}/${record.id}`),
        404,
        'not_found',
      );
      const readOnly = api(app, app.seed.entities.primary.keys.read_only);
      await readOnly.get(base).expect(200);
      expectError(
        await readOnly.post(base).send({ ...create, code: nextCode() }),
        403,
        'insufficient_scope',
        { required: `${scope}:write` },
      );
      expectError(
        await api(app, app.seed.entities.primary.keys.orders_only).get(base),
        403,
        'insufficient_scope',
        { required: `${scope}:read` },
      );
    });
  });

  it('checks payment term discount days against net days', async () => {
    expectError(
      await live
        .post('/v1/payment-terms')
        .send({ name: 'bad', code: 'BAD1', net_days: 10, discount_percent: 2, discount_days: 11 }),
      400,
      'parameter_invalid',
      { param: 'discount_days' },
    );
    const term = (
      await live.post('/v1/payment-terms').send({ name: 'n15', code: 'N15', net_days: 15 }).expect(201)
    ).body;
    expect(term).toMatchObject({ discount_percent: 0, discount_days: 0 });
    expectError(
      await live.patch(`/v1/payment-terms/${term.id}`).send({ discount_percent: 1 }),
      400,
      'parameter_invalid',
      {
        param: 'discount_days',
      },
    );
  });

  it('stores location addresses with an upper-case country and validates nested fields', async () => {
    const loc = (
      await live
        .post('/v1/locations')
        .send(CASES[0].create)
        .send({ ...CASES[0].create, code: 'LOC-ADDR' })
        .expect(201)
    ).body;
    expect(loc.address).toEqual({
      line1: '1 Dock Rd',
      line2: null,
      city: 'Reno',
      region: null,
      postal_code: null,
      country: 'US',
    });
    expectError(
      await live.post('/v1/locations').send({
        name: 'x',
        code: 'LOC-BAD',
        type: 'store',
        address: { line1: 'a', city: 'b', country: 'USA' },
      }),
      400,
      'parameter_invalid',
      { param: 'address.country' },
    );
  });
});
