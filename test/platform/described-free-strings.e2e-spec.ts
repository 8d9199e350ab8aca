import { confirmedOrder, fixturesOf } from '../fulfillment/support';
import { api, expectError } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * Free strings the validators hold to a format or a closed list, and rules the request alone
 * cannot show: the served description states each one, and the server accepts exactly what the
 * description's pattern or enum accepts (docs/api-decisions.md, "The description of free strings").
 */

type Schema = {
  $ref?: string;
  pattern?: string;
  format?: string;
  enum?: unknown[];
  items?: Schema;
  properties?: Record<string, Schema>;
  'x-rules'?: Record<string, unknown>[];
  description?: string;
  type?: string | string[];
};

describe('the description of free strings', () => {
  let app: TestApp;
  let live: ReturnType<typeof api>;
  let entityPath: string;

  const doc = () =>
    app.openapi as unknown as {
      paths: Record<
        string,
        Record<
          string,
          {
            parameters?: { name: string; in: string; schema: Schema; description?: string }[];
            requestBody?: { content: Record<string, { schema: Schema }> };
          }
        >
      >;
      components: { schemas: Record<string, Schema> };
    };
  const resolve = (schema: Schema): Schema =>
    schema.$ref ? doc().components.schemas[schema.$ref.split('/').pop()!] : schema;
  const bodyOf = (path: string, method: string) =>
    resolve(doc().paths[path][method].requestBody!.content['application/json'].schema);
  const queryParam = (path: string, method: string, name: string) =>
    doc().paths[path][method].parameters!.find((p) => p.in === 'query' && p.name === name)!;

  beforeAll(async () => {
    app = await startTestApp();
    live = api(app, app.seed.entities.primary.keys.live);
    entityPath = `/v1/entities/${app.seed.entities.primary.id}`;
  });
  afterAll(() => app.close());

  it('ip_allowlist entries: the served pattern accepts exactly the entries the server takes', async () => {
    const items = bodyOf('/v1/entities/{entity_id}/api_keys', 'post').properties!.ip_allowlist.items!;
    const pattern = new RegExp(items.pattern!);
    const samples = [
      '10.0.0.0/8',
      '198.51.100.7',
      '0.0.0.0/0',
      '2001:db8::/32',
      '::1',
      'fe80::1/64',
      '1:2:3:4:5:6:7:8',
      '1:2:3:4:5:6:7::',
      'fe80::1%eth0',
      '::ffff:10.0.0.1',
      '10.0.0.0/08',
      '10.0.0.0/33',
      '2001:db8::/129',
      '01.2.3.4',
      ' 10.0.0.1',
      'example.com',
      '',
    ];
    const taken = new Set(samples.slice(0, 8));
    for (const entry of samples) {
      expect([entry, pattern.test(entry)]).toEqual([entry, taken.has(entry)]);
      const res = await live
        .post(`${entityPath}/api_keys`)
        .send({ name: 'allowlist', scopes: ['tags:read'], ip_allowlist: ['127.0.0.1', entry] });
      const seen =
        res.status === 201
          ? { status: 201, stored: res.body.ip_allowlist }
          : { status: res.status, code: res.body.code, param: res.body.param };
      expect([entry, seen]).toEqual([
        entry,
        taken.has(entry)
          ? { status: 201, stored: ['127.0.0.1', entry] }
          : { status: 400, code: 'parameter_invalid', param: 'ip_allowlist[1]' },
      ]);
    }
  });

  it('the mode of a new key is the calling key’s: stated as a rule, refused otherwise', async () => {
    const rules = bodyOf('/v1/entities/{entity_id}/api_keys', 'post')['x-rules'] ?? [];
    expect(rules).toContainEqual(
      expect.objectContaining({ kind: 'caller_mode', field: 'mode', param: 'mode' }),
    );
    expectError(
      await live.post(`${entityPath}/api_keys`).send({ name: 'other mode', mode: 'test', scopes: [] }),
      400,
      'parameter_invalid',
      { param: 'mode' },
    );
    await live
      .post(`${entityPath}/api_keys`)
      .send({ name: 'same mode', mode: 'live', scopes: [] })
      .expect(201);
  });

  it('carriers and carrier_service codes are enums; a carrier takes only its own services', async () => {
    const fields = bodyOf('/v1/packages', 'post').properties!;
    expect(fields.carrier.enum).toEqual(['usps', 'ups', 'fedex', null]);
    expect(fields.carrier_service.enum).toEqual([
      'usps_ground_advantage',
      'usps_priority',
      'usps_priority_express',
      'ups_ground',
      'ups_2nd_day_air',
      'ups_next_day_air',
      'fedex_ground',
      'fedex_2_day',
      'fedex_standard_overnight',
      null,
    ]);
    const ship = bodyOf('/v1/packages/{id}/ship', 'post');
    expect(ship.properties!.carrier.enum).toEqual(['usps', 'ups', 'fedex']);
    expect(ship['x-rules']).toContainEqual(
      expect.objectContaining({
        kind: 'when',
        field: 'carrier',
        is: ['ups'],
        allowed: { service: ['ground', '2nd_day_air', 'next_day_air'] },
        param: 'service',
      }),
    );
    expect(ship['x-rules']).toContainEqual(
      expect.objectContaining({
        kind: 'one_required',
        fields: ['carrier', 'carrier_service'],
        stored: true,
        param: 'carrier',
      }),
    );

    const fx = fixturesOf(app);
    const order = await confirmedOrder(live, fx.accountId, [{ product_id: fx.productId, quantity: 1 }]);
    for (const [body, param] of [
      [{ carrier: 'UPS' }, 'carrier'],
      [{ carrier: 'dhl' }, 'carrier'],
      [{ carrier_service: 'dhl_express' }, 'carrier_service'],
      [{ carrier: 'ups', service: 'priority' }, 'service'],
      [{ carrier_service: 'ups_ground', carrier: 'usps' }, 'carrier_service'],
    ] as const)
      expectError(
        await live.post('/v1/packages').send({ order_id: order.id, ...body }),
        400,
        'parameter_invalid',
        { param },
      );
    const made = await live
      .post('/v1/packages')
      .send({ order_id: order.id, carrier_service: 'ups_ground', carrier: 'ups' })
      .expect(201);
    expect(made.body).toMatchObject({ carrier: 'ups', service_level: 'ground' });
  });

  it('the event type filter is the enum of the catalog’s types', async () => {
    const types = (await live.get(`${entityPath}/event_types`).expect(200)).body.data.map(
      (t: { type: string }) => t.type,
    );
    expect(types).toContain('order.confirmed');
    expect(queryParam('/v1/entities/{entity_id}/events', 'get', 'type').schema.enum).toEqual(types);
    await live.get(`${entityPath}/events?type=order.confirmed`).expect(200);
    expectError(await live.get(`${entityPath}/events?type=order.nope`), 400, 'parameter_invalid', {
      param: 'type',
    });
  });

  it('an import’s resource: the same pattern in the query and the body, required in one of them', async () => {
    const path = '/v1/entities/{entity_id}/migration/imports';
    const body = bodyOf(path, 'post');
    const inQuery = queryParam(path, 'post', 'resource');
    expect(inQuery.schema.pattern).toBe(body.properties!.resource.pattern);
    expect(body['x-rules']).toContainEqual(
      expect.objectContaining({ kind: 'one_required', fields: ['resource'], param: 'resource' }),
    );
    expect(body.properties!.records).toMatchObject({ minItems: 1 });
    const pattern = new RegExp(body.properties!.resource.pattern!);
    const records = [{ external_id: 'DESCRIBED-1', name: 'Described 1' }];
    const imports = `${entityPath}/migration/imports`;
    // A name without an importer is taken (its rows become row errors); a malformed one is not.
    const taken = new Set(['tags', 'not_importable_2', `t${'a'.repeat(63)}`]);
    for (const name of [...taken, 'Tags', '1tags', 'tags-x', `t${'a'.repeat(64)}`]) {
      expect([name, pattern.test(name)]).toEqual([name, taken.has(name)]);
      const viaBody = await live.post(imports).send({ resource: name, records });
      const viaQuery = await live.post(`${imports}?resource=${encodeURIComponent(name)}`).send({ records });
      for (const res of [viaBody, viaQuery])
        expect([name, res.status, res.body.param]).toEqual(
          taken.has(name) ? [name, 201, undefined] : [name, 400, 'resource'],
        );
    }
    expectError(await live.post(imports).send({ records }), 400, 'parameter_missing', { param: 'resource' });
    expectError(await live.post(imports).send({ resource: 'tags', records: [] }), 400, 'parameter_invalid', {
      param: 'records',
    });
  });

  it('an order payment’s card and payment_method_id go with their own method only', () => {
    const rules = bodyOf('/v1/orders/{id}/payments', 'post')['x-rules'] ?? [];
    expect(rules).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'when', field: 'method', is: ['card'], requires: ['card'] }),
        expect.objectContaining({
          kind: 'when',
          field: 'method',
          is: ['payment_method'],
          requires: ['payment_method_id'],
        }),
        expect.objectContaining({ kind: 'when', field: 'method', forbids: ['card'], param: 'card' }),
        expect.objectContaining({
          kind: 'when',
          field: 'method',
          forbids: ['payment_method_id'],
          param: 'payment_method_id',
        }),
      ]),
    );
    const forbidsCard = rules.find((r) => (r.forbids as string[] | undefined)?.includes('card'))!;
    expect(forbidsCard.is).toEqual(expect.arrayContaining(['cash', 'payment_method']));
    expect(forbidsCard.is).not.toContain('card');
  });

  it('shop_url is an absolute http(s) URL', () => {
    const settings = resolve(bodyOf('/v1/integrations', 'post').properties!.settings);
    const shop = settings.properties!.shop_url;
    expect(shop.format).toBe('uri');
    const pattern = new RegExp(shop.pattern!);
    expect(pattern.test('https://example-shop.myshopify.com')).toBe(true);
    expect(pattern.test('ftp://example.com')).toBe(false);
    expect(pattern.test('example.com')).toBe(false);
  });
});
