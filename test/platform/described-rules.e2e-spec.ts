import { api, expectError } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * Rules the description states in `x-rules` and the server holds requests to: rules judged
 * against the clock (`not_past`), rules that reach into an object field (the integration
 * adapter), lists whose items name a record once (`distinct`, refused before the record's state
 * is read), and the limits of free objects (docs/api-decisions.md, "Input validation and the
 * description").
 */

type Rule = Record<string, unknown>;
type Schema = {
  $ref?: string;
  type?: string | string[];
  items?: Schema;
  uniqueItems?: boolean;
  maxLength?: number;
  allOf?: Schema[];
  properties?: Record<string, Schema>;
  'x-rules'?: Rule[];
  maxProperties?: number;
  propertyNames?: { minLength?: number; maxLength?: number };
  additionalProperties?: boolean | Schema;
};

const DAY = 86_400_000;
const randomId = () => crypto.randomUUID();

describe('rules the description states', () => {
  let app: TestApp;
  let live: ReturnType<typeof api>;
  let testKey: ReturnType<typeof api>;
  let entityPath: string;
  let accountId: string;
  let cash: string;

  const doc = () =>
    app.openapi as unknown as {
      paths: Record<
        string,
        Record<string, { requestBody?: { content: Record<string, { schema: Schema }> } }>
      >;
      components: { schemas: Record<string, Schema> };
    };
  const resolve = (schema: Schema): Schema => {
    const ref = schema.$ref ?? (schema.allOf?.length === 1 ? schema.allOf[0].$ref : undefined);
    return ref ? doc().components.schemas[ref.split('/').pop()!] : schema;
  };
  const bodyOf = (path: string, method: string) =>
    resolve(doc().paths[path][method].requestBody!.content['application/json'].schema);
  const queryParameter = (path: string, name: string) =>
    (
      doc().paths[path].get as unknown as { parameters: { name: string; in: string; schema: Schema }[] }
    ).parameters.find((p) => p.in === 'query' && p.name === name)!.schema;

  beforeAll(async () => {
    app = await startTestApp();
    live = api(app, app.seed.entities.primary.keys.live);
    testKey = api(app, app.seed.entities.primary.keys.test);
    entityPath = `/v1/entities/${app.seed.entities.primary.id}`;
    accountId = app.seed.fixtures.account_id as string;
    cash = (app.seed.fixtures as { ledger_accounts: Record<string, string> }).ledger_accounts.cash;
  });
  afterAll(() => app.close());

  it('an API key expires after now: stated, and a past instant is refused naming expires_at', async () => {
    expect(bodyOf('/v1/entities/{entity_id}/api_keys', 'post')['x-rules']).toContainEqual(
      expect.objectContaining({
        kind: 'not_past',
        field: 'expires_at',
        unit: 'instant',
        param: 'expires_at',
      }),
    );
    const key = (expires_at: string) =>
      live.post(`${entityPath}/api_keys`).send({ name: 'expiring', scopes: ['tags:read'], expires_at });
    expectError(await key(new Date(Date.now() - 60_000).toISOString()), 400, 'parameter_invalid', {
      param: 'expires_at',
    });
    const later = new Date(Date.now() + DAY).toISOString();
    expect((await key(later).expect(201)).body.expires_at).toBe(later);
  });

  it("a card is not expired: stated on the card, and last month's card is refused naming card.exp_year", async () => {
    expect(bodyOf('/v1/accounts/{id}/payment-methods', 'post').properties!.card).toBeDefined();
    expect(
      resolve(bodyOf('/v1/accounts/{id}/payment-methods', 'post').properties!.card)['x-rules'],
    ).toContainEqual(
      expect.objectContaining({ kind: 'not_past', field: 'exp_year', month: 'exp_month', unit: 'month' }),
    );
    const now = new Date();
    const [year, month] = [now.getUTCFullYear(), now.getUTCMonth() + 1];
    const [lastYear, lastMonth] = month === 1 ? [year - 1, 12] : [year, month - 1];
    const card = (exp_year: number, exp_month: number) =>
      live
        .post(`/v1/accounts/${accountId}/payment-methods`)
        .send({ type: 'card', card: { brand: 'visa', last4: '4242', exp_month, exp_year } });
    expectError(await card(lastYear, lastMonth), 400, 'parameter_invalid', { param: 'card.exp_year' });
    const stored = (await card(year, month).expect(201)).body;
    expect(stored.card).toMatchObject({ exp_month: month, exp_year: year });
  });

  it("the collections sweep runs from the entity's business day on: stated, and the day before is refused", async () => {
    expect(bodyOf('/v1/test_helpers/collections/run', 'post')['x-rules']).toContainEqual(
      expect.objectContaining({ kind: 'not_past', field: 'as_of', unit: 'day', within_days: 366 }),
    );
    const today = (await testKey.get('/v1/accounting/settings').expect(200)).body
      .current_business_day as string;
    const shift = (days: number) =>
      new Date(Date.parse(`${today}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);
    const run = (as_of: string) => testKey.post('/v1/test_helpers/collections/run').send({ as_of });
    expectError(await run(shift(-1)), 400, 'parameter_invalid', { param: 'as_of' });
    expectError(await run(shift(367)), 400, 'parameter_invalid', { param: 'as_of' });
    expect((await run(shift(366)).expect(200)).body.as_of).toBe(shift(366));
    expect((await run(today).expect(200)).body.as_of).toBe(today);
  });

  it('the integration adapter rules are stated and refused naming the field inside settings', async () => {
    const rules = bodyOf('/v1/integrations', 'post')['x-rules'];
    expect(rules).toContainEqual(
      expect.objectContaining({
        kind: 'when',
        field: 'type',
        is: ['marketplace1', 'marketplace2'],
        allowed: { 'settings.adapter': ['sandbox'] },
        param: 'settings.adapter',
      }),
    );
    const settings = resolve(bodyOf('/v1/integrations', 'post').properties!.settings)['x-rules'];
    expect(settings).toContainEqual(
      expect.objectContaining({ kind: 'when', field: 'adapter', is: ['shopify'], requires: ['shop_url'] }),
    );
    const create = (body: Record<string, unknown>) =>
      live.post('/v1/integrations').send({ name: 'rules', ...body });
    expectError(
      await create({
        type: 'marketplace1',
        settings: { adapter: 'shopify', shop_url: 'https://a.myshopify.com' },
      }),
      400,
      'parameter_invalid',
      { param: 'settings.adapter' },
    );
    expectError(
      await create({ type: 'storefront', settings: { shop_url: 'https://a.myshopify.com' } }),
      400,
      'parameter_invalid',
      { param: 'settings.shop_url' },
    );
    expectError(
      await create({ type: 'storefront', settings: { adapter: 'shopify' } }),
      400,
      'parameter_invalid',
      {
        param: 'settings.shop_url',
      },
    );
    expectError(
      await create({ type: 'marketplace2', credentials: { access_token: 'shpat_x' } }),
      400,
      'parameter_unknown',
      { param: 'credentials.access_token' },
    );
    const made = (await create({ type: 'marketplace2', credentials: { api_key: 'k' } }).expect(201)).body;
    expect(made.settings).toMatchObject({ adapter: 'sandbox', shop_url: null });
  });

  it("an integration update is held to its stored connector type's rules: stated, and refused naming the field", async () => {
    const rules = bodyOf('/v1/integrations/{id}', 'patch')['x-rules'];
    expect(rules).toContainEqual(
      expect.objectContaining({
        kind: 'when',
        field: 'type',
        is: ['marketplace1', 'marketplace2'],
        allowed: { 'settings.adapter': ['sandbox'] },
        stored: true,
        param: 'settings.adapter',
      }),
    );
    expect(rules).toContainEqual(
      expect.objectContaining({
        kind: 'when',
        field: 'type',
        is: ['marketplace1', 'marketplace2'],
        forbids: ['credentials.access_token'],
        stored: true,
        param: 'credentials.access_token',
      }),
    );
    // The condition is the record's: the update body has no `type` to send.
    expect(bodyOf('/v1/integrations/{id}', 'patch').properties).not.toHaveProperty('type');
    const create = async (type: string) =>
      (
        await live
          .post('/v1/integrations')
          .send({ type, name: `stored ${type}` })
          .expect(201)
      ).body as {
        id: string;
        settings: Record<string, unknown>;
        credentials_set: boolean;
        credentials_hint: string | null;
      };
    const marketplace = await create('marketplace2');
    const storefront = await create('storefront');
    const update = (id: string, body: Record<string, unknown>) =>
      live.patch(`/v1/integrations/${id}`).send(body);
    expectError(
      await update(marketplace.id, { settings: { adapter: 'shopify', shop_url: 'https://a.myshopify.com' } }),
      400,
      'parameter_invalid',
      { param: 'settings.adapter' },
    );
    expectError(
      await update(marketplace.id, { credentials: { access_token: 'shpat_stored' } }),
      400,
      'parameter_unknown',
      { param: 'credentials.access_token' },
    );
    // Nothing refused was stored; the same changes are the storefront connector's to take.
    const kept = (await live.get(`/v1/integrations/${marketplace.id}`).expect(200)).body;
    expect(kept).toMatchObject({
      settings: marketplace.settings,
      credentials_set: marketplace.credentials_set,
      credentials_hint: marketplace.credentials_hint,
    });
    await update(marketplace.id, { credentials: { api_key: 'k' } }).expect(200);
    const edited = (
      await update(storefront.id, { credentials: { access_token: 'shpat_storefront' } }).expect(200)
    ).body;
    expect(edited.credentials_hint).toBe('••••ront');
  });

  it('a repeated serial number is refused naming it, in every list of serials, before the route runs', async () => {
    // A flat list states uniqueItems too; a list in each item of a list is stated by x-rules.
    for (const [path, field] of [
      ['/v1/inventory/adjustments', 'serial_numbers'],
      ['/v1/inventory/transfers', 'serial_numbers'],
      ['/v1/orders/{id}/lines/{line_id}/allocate-serials', 'serial_numbers'],
      ['/v1/orders/{id}/lines/{line_id}/deallocate-serials', 'serial_numbers'],
    ]) {
      const body = bodyOf(path, 'post');
      expect(body['x-rules']).toContainEqual(
        expect.objectContaining({ kind: 'distinct', field, param: field }),
      );
      expect(body.properties![field]).toMatchObject({ type: 'array', uniqueItems: true });
    }
    for (const [path, list] of [
      ['/v1/packages', 'items'],
      ['/v1/purchase-orders/{id}/receive', 'lines'],
      ['/v1/returns/{id}/receive', 'items'],
    ])
      expect(bodyOf(path, 'post')['x-rules']).toContainEqual(
        expect.objectContaining({ kind: 'distinct', field: list, key: 'serial_numbers[]', param: list }),
      );
    // Records that do not exist: the repeat is refused before any is looked up (404 otherwise).
    const [product, location, other] = [randomId(), randomId(), randomId()];
    expectError(
      await live.post('/v1/inventory/transfers').send({
        product_id: product,
        from_location_id: location,
        to_location_id: other,
        quantity: 3,
        serial_numbers: ['SN-1', 'SN-2', 'SN-1'],
      }),
      400,
      'parameter_invalid',
      { param: 'serial_numbers[2]' },
    );
    expectError(
      await live.post('/v1/inventory/adjustments').send({
        product_id: product,
        location_id: location,
        quantity: 2,
        reason: 'repeat',
        serial_numbers: ['SN-1', 'SN-1'],
      }),
      400,
      'parameter_invalid',
      { param: 'serial_numbers[1]' },
    );
    expectError(
      await live
        .post(`/v1/orders/${randomId()}/lines/${randomId()}/allocate-serials`)
        .send({ serial_numbers: ['SN-9', 'SN-8', 'SN-8'] }),
      400,
      'parameter_invalid',
      { param: 'serial_numbers[2]' },
    );
    // Across the items of one request: the second item names a serial of the first.
    expectError(
      await live.post('/v1/packages').send({
        order_id: randomId(),
        items: [
          { product_id: product, quantity: 2, serial_numbers: ['SN-1', 'SN-2'] },
          { product_id: other, quantity: 2, serial_numbers: ['SN-3', 'SN-2'] },
        ],
      }),
      400,
      'parameter_invalid',
      { param: 'items[1].serial_numbers[1]' },
    );
    expectError(
      await live.post(`/v1/purchase-orders/${randomId()}/receive`).send({
        lines: [
          { order_item_id: randomId(), quantity: 1, location_id: location, serial_numbers: ['SN-1'] },
          { order_item_id: randomId(), quantity: 1, location_id: location, serial_numbers: ['SN-1'] },
        ],
      }),
      400,
      'parameter_invalid',
      { param: 'lines[1].serial_numbers[0]' },
    );
    expectError(
      await live.post(`/v1/returns/${randomId()}/receive`).send({
        package_id: randomId(),
        items: [{ package_item_id: randomId(), quantity: 2, serial_numbers: ['SN-1', 'SN-1'] }],
      }),
      400,
      'parameter_invalid',
      { param: 'items[0].serial_numbers[1]' },
    );
    // One serial once is no repeat: the request reaches the route, which looks the order up.
    const once = await live
      .post(`/v1/orders/${randomId()}/lines/${randomId()}/allocate-serials`)
      .send({ serial_numbers: ['SN-8'] });
    expect(once.status).toBe(404);
  });

  it('length limits count code points as the description does (a variation selector counts, an emoji once)', async () => {
    // Counted here the way JSON Schema counts: code points.
    const length = (text: string) => [...text].length;
    const q = queryParameter('/v1/inventory/serials', 'q').maxLength!;
    expect(q).toBe(120);
    const serials = (text: string) => live.get(`/v1/inventory/serials?q=${encodeURIComponent(text)}`);
    const over = 'a'.repeat(q) + '\uFE0F';
    expect(length(over)).toBe(q + 1);
    expectError(await serials('a'.repeat(q + 1)), 400, 'parameter_invalid', { param: 'q' });
    expectError(await serials(over), 400, 'parameter_invalid', { param: 'q' });
    const emoji = '\u{1F4A5}'.repeat(q);
    expect(length(emoji)).toBe(q);
    expect((await serials(emoji).expect(200)).body.data).toEqual([]);
    await serials('a'.repeat(q - 1) + '\uFE0F').expect(200);

    const name = bodyOf('/v1/tags', 'post').properties!.name.maxLength!;
    const tag = (text: string) => live.post('/v1/tags').send({ name: text });
    expectError(await tag(`${'t'.repeat(name)}\uFE0F`), 400, 'parameter_invalid', { param: 'name' });
    const stored = `${'\u{1F3F7}'.repeat(name - 1)}\uFE0F`;
    expect(length(stored)).toBe(name);
    expect((await tag(stored).expect(201)).body.name).toBe(stored);
  });

  it('a repeated list item is refused naming it, before the record is looked up or its state read', async () => {
    for (const [path, list, key] of [
      ['/v1/returns', 'lines', 'order_item_id'],
      ['/v1/accounting/bank-transactions/{id}/match-deposit-to-invoices', 'applications', 'invoice_id'],
      ['/v1/returns/{id}/receive', 'items', 'package_item_id'],
    ])
      expect(bodyOf(path, 'post')['x-rules']).toContainEqual(
        expect.objectContaining({ kind: 'distinct', field: list, key, param: list }),
      );
    const line = randomId();
    expectError(
      await live.post('/v1/returns').send({
        account_id: randomId(),
        order_id: randomId(),
        lines: [
          { order_item_id: line, quantity: 1 },
          { order_item_id: randomId(), quantity: 1 },
          { order_item_id: line, quantity: 2 },
        ],
      }),
      400,
      'parameter_invalid',
      { param: 'lines[2].order_item_id' },
    );

    // A deposit matched once answers 409 to a second match, but 400 to one naming an invoice twice.
    const draft = await live
      .post('/v1/orders')
      .send({
        document_type: 'invoice',
        account_id: accountId,
        lines: [{ description: 'Rules', quantity: 1, unit_price: 10 }],
      })
      .expect(201);
    const invoice = (await live.post(`/v1/orders/${draft.body.id}/confirm`).send({}).expect(200)).body;
    const day = (await live.get('/v1/accounting/settings').expect(200)).body.current_business_day as string;
    const deposit = (
      await live
        .post('/v1/accounting/bank-transactions')
        .send({
          bank_account_id: cash,
          type: 'deposit',
          amount: 10,
          transaction_date: day,
          reference: `rules-${randomId()}`,
        })
        .expect(201)
    ).body;
    const match = (applications: { invoice_id: string; amount: number }[]) =>
      live
        .post(`/v1/accounting/bank-transactions/${deposit.id}/match-deposit-to-invoices`)
        .send({ account_id: accountId, applications });
    const once = { invoice_id: invoice.id as string, amount: 5 };
    expectError(await match([once, once]), 400, 'parameter_invalid', { param: 'applications[1].invoice_id' });
    await match([{ ...once, amount: 10 }]).expect(200);
    expectError(await match([once]), 409, 'invalid_state');
    expectError(await match([once, once]), 400, 'parameter_invalid', { param: 'applications[1].invoice_id' });
  });

  it("metadata states the limits the server holds it to, a payment's included", async () => {
    const metadata = bodyOf('/v1/orders/{id}/payments', 'post').properties!.metadata;
    expect(metadata).toMatchObject({
      maxProperties: 50,
      propertyNames: { minLength: 1, maxLength: 40 },
      additionalProperties: { maxLength: 500 },
    });
    const draft = await live
      .post('/v1/orders')
      .send({
        document_type: 'invoice',
        account_id: accountId,
        lines: [{ description: 'Meta', quantity: 1, unit_price: 10 }],
      })
      .expect(201);
    await live.post(`/v1/orders/${draft.body.id}/confirm`).send({}).expect(200);
    const pay = (meta: Record<string, string | null>) =>
      live.post(`/v1/orders/${draft.body.id}/payments`).send({ method: 'cash', amount: 1, metadata: meta });
    const longKey = 'k'.repeat(41);
    expectError(await pay({ [longKey]: 'v' }), 400, 'parameter_invalid', { param: `metadata.${longKey}` });
    expectError(await pay({ note: 'v'.repeat(501) }), 400, 'parameter_invalid', { param: 'metadata.note' });
    const many = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v']));
    expectError(await pay(many), 400, 'parameter_invalid', { param: 'metadata' });
    const paid = (await pay({ note: 'v'.repeat(500), gone: null }).expect(201)).body;
    expect(paid.metadata).toEqual({ note: 'v'.repeat(500) });
    // Nothing refused was charged: the one payment of the invoice is the last.
    const invoice = (await live.get(`/v1/orders/${draft.body.id}`).expect(200)).body;
    expect(invoice.amount_due).toBe(9);
  });

  it('variant options state the limits IsStringMap holds them to', () => {
    const options = bodyOf('/v1/products/{id}/variants', 'post').properties!.options;
    expect(options).toMatchObject({
      maxProperties: 20,
      propertyNames: { minLength: 1, maxLength: 40 },
      additionalProperties: { type: 'string', maxLength: 200 },
    });
  });
});
