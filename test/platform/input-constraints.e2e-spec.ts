import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { api, expectError } from '../support/http';
import { listAll } from '../support/list-all';
import { startTestApp, TestApp } from '../support/test-app';

type Schema = Record<string, unknown>;
type Parameter = { name: string; in: string; schema?: Schema; $ref?: string };
type Operation = { parameters?: Parameter[] };

/**
 * What the served description says a request may hold is what the server takes: each rule read
 * from the description is checked against the server with a value it allows (accepted) and a
 * value that breaks only that rule (400 naming the parameter).
 */
describe('input constraints: the description and the validators agree', () => {
  let app: TestApp;
  let live: ReturnType<typeof api>;
  let key: string;
  let base: string;

  beforeAll(async () => {
    app = await startTestApp();
    key = app.seed.entities.primary.keys.live;
    live = api(app, key);
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => app.close());

  const doc = () =>
    app.openapi as unknown as {
      paths: Record<string, Record<string, Operation>>;
      components: { schemas: Record<string, Schema>; parameters: Record<string, Parameter> };
    };
  const resolve = (p: Parameter): Parameter =>
    p.$ref ? doc().components.parameters[p.$ref.split('/').pop()!] : p;
  const parameter = (path: string, method: string, name: string): Parameter | undefined =>
    (doc().paths[path][method].parameters ?? []).map(resolve).find((p) => p.name === name);
  const property = (schema: string, name: string) =>
    (doc().components.schemas[schema].properties as Record<string, Schema>)[name];
  const matches = (schema: Schema | undefined, value: string) =>
    new RegExp(String(schema?.pattern)).test(value);
  const tagNames = async () => (await listAll(live, '/v1/tags')).map((t) => t.name as string);

  it('any 8-4-4-4-12 hex id is an id: accepted as a filter, and an unknown one in a path is 404', async () => {
    const accountId = parameter('/v1/orders', 'get', 'account_id');
    expect(accountId?.schema).toMatchObject({ type: 'string', format: 'uuid' });
    // No RFC version digit (0) nor variant: valid by `format: uuid`, so taken.
    await live.get('/v1/orders?account_id=e3e70682-c209-4cac-629f-6fbed82c07cd').expect(200);
    await live.get('/v1/orders?account_id=00000000-0000-0000-0000-000000000000').expect(200);
    expectError(
      await live.get('/v1/orders?account_id=e3e70682-c209-4cac-629f-6fbed82c07c'),
      400,
      'parameter_invalid',
      {
        param: 'account_id',
      },
    );
    expectError(await live.get('/v1/tags/E3E70682-C209-4CAC-629F-6FBED82C07CD'), 404, 'not_found');
    // A body reference of that layout is looked up (404 for the missing account), not refused as malformed.
    const order = await live
      .post('/v1/orders')
      .send({ account_id: 'e3e70682-c209-4cac-629f-6fbed82c07cd', lines: [] });
    expect(order.body.hint).toContain("No active account with id 'e3e70682-c209-4cac-629f-6fbed82c07cd'");
  });

  it('Idempotency-Key: 1 to 255 characters, not all white space, as described', async () => {
    const rule = doc().components.parameters.IdempotencyKey.schema!;
    expect(rule).toMatchObject({ minLength: 1, maxLength: 255 });
    const send = (value: string) =>
      request(app.server)
        .post('/v1/tags')
        .set('Authorization', `Bearer ${key}`)
        .set('Idempotency-Key', value)
        .send({ name: `idem-${value.length}-${Date.now()}` });
    expect(matches(rule, 'k')).toBe(true);
    expect((await send('k')).status).toBe(201);
    expect((await send('x'.repeat(255))).status).toBe(201);
    expect(matches(rule, '   ')).toBe(false);
    expectError(await send(''), 400, 'parameter_invalid', { param: 'Idempotency-Key' });
    expectError(await send('x'.repeat(256)), 400, 'idempotency_key_too_long', { param: 'Idempotency-Key' });
  });

  it('limit is an integer on every list route, and a fraction is 400 naming limit', async () => {
    const limits = Object.entries(doc().paths).flatMap(([path, item]) =>
      Object.entries(item).flatMap(([method, op]) =>
        (op.parameters ?? [])
          .map(resolve)
          .filter((p) => p.name === 'limit' && p.in === 'query')
          .map((p) => ({ route: `${method} ${path}`, type: p.schema?.type })),
      ),
    );
    expect(limits.length).toBeGreaterThan(40);
    expect(limits.filter((l) => l.type !== 'integer')).toEqual([]);
    await live.get('/v1/webhook_endpoints?limit=2').expect(200);
    expectError(await live.get('/v1/webhook_endpoints?limit=1.5'), 400, 'parameter_invalid', {
      param: 'limit',
    });
    expectError(await live.get('/v1/product-categories?limit=1.5'), 400, 'parameter_invalid', {
      param: 'limit',
    });
  });

  it('expand[] is offered with the paths that expand, and not at all where nothing does', async () => {
    expect(parameter('/v1/accounting/settings', 'get', 'expand[]')).toBeUndefined();
    expect(parameter('/v1/tags', 'get', 'expand[]')).toBeUndefined();
    const orders = parameter('/v1/orders', 'get', 'expand[]');
    expect((orders?.schema?.items as Schema).enum).toContain('account');
    // Everything in the description is taken; what it does not offer is refused.
    await live.get('/v1/orders?expand[]=account&limit=1').expect(200);
    expectError(await live.get('/v1/accounting/settings?expand[]=x'), 400, 'invalid_expand', {
      param: 'expand[0]',
    });
    expectError(await live.get('/v1/orders?expand[]=nothing'), 400, 'invalid_expand', { param: 'expand[0]' });
    // Every expand[] left in the description lists its paths.
    const offered = Object.values(doc().paths)
      .flatMap((item) => Object.values(item))
      .flatMap((op) => (op.parameters ?? []).map(resolve))
      .filter((p) => p.name === 'expand[]');
    expect(offered.length).toBeGreaterThan(0);
    expect(
      offered.filter((p) => !((p.schema?.items as Schema).enum as string[] | undefined)?.length),
    ).toEqual([]);
  });

  it('calendar dates: the described pattern and format take exactly the dates the server takes', async () => {
    const dateFrom = parameter('/v1/accounting/bank-transactions', 'get', 'date_from')!.schema!;
    expect(dateFrom.format).toBe('date');
    const startDate = property('CreateFiscalYearDto', 'start_date');
    expect(startDate).toMatchObject({ format: 'date', pattern: dateFrom.pattern });
    for (const valid of ['2026-01-31', '2024-02-29', '1000-01-01', '9999-12-31']) {
      expect(matches(dateFrom, valid)).toBe(true);
      await live.get(`/v1/accounting/bank-transactions?date_from=${valid}`).expect(200);
    }
    for (const invalid of [
      '0000-00-00',
      '0001-01-01',
      '0999-12-31',
      '2026-13-01',
      '2026-01-32',
      '2026-1-01',
    ]) {
      expect(matches(dateFrom, invalid)).toBe(false);
      expectError(
        await live.get(`/v1/accounting/bank-transactions?date_from=${invalid}`),
        400,
        'parameter_invalid',
        {
          param: 'date_from',
        },
      );
    }
    // The pattern lets 2026-02-30 through; `format: date` does not, nor does the server.
    expectError(
      await live.get('/v1/accounting/bank-transactions?date_from=2026-02-30'),
      400,
      'parameter_invalid',
      {
        param: 'date_from',
      },
    );
  });

  it('date-times: upper-case T and Z, seconds 00-59, a year from 1000, as the pattern says', async () => {
    const after = parameter('/v1/activity', 'get', 'created_after')!.schema!;
    expect(after.format).toBe('date-time');
    const since = property('RecoverWebhookEndpointDto', 'since');
    expect(since.pattern).toBe(after.pattern);
    for (const valid of [
      '2026-11-20T09:30:00Z',
      '2026-11-20T09:30:00.123456+05:30',
      '2026-11-20T09:30:00-00:00',
    ]) {
      expect(matches(after, valid)).toBe(true);
      await live.get(`/v1/activity?created_after=${encodeURIComponent(valid)}`).expect(200);
    }
    for (const invalid of [
      '2026-11-20t09:30:00z',
      '2026-11-20T23:59:60Z',
      '0000-01-01T00:00:00Z',
      '2026-11-20',
      '2026-11-20T09:30Z',
    ]) {
      expect(matches(after, invalid)).toBe(false);
      expectError(
        await live.get(`/v1/activity?created_after=${encodeURIComponent(invalid)}`),
        400,
        'parameter_invalid',
        { param: 'created_after' },
      );
    }
  });

  it('a NUL character in a free string is refused, and the description says so with a pattern', async () => {
    const name = property('CreateTagDto', 'name');
    expect(matches(name, 'plain name')).toBe(true);
    expect(matches(name, 'nul\u0000name')).toBe(false);
    expectError(await live.post('/v1/tags').send({ name: 'nul\u0000name' }), 400, 'parameter_invalid', {
      param: 'name',
    });
    expectError(await live.get('/v1/accounts?email=a%00b'), 400, 'parameter_invalid', { param: 'email' });
  });

  it('a JSON body that is not UTF-8 is 400 invalid_json naming the byte; nothing is stored', async () => {
    const bytes = Buffer.concat([Buffer.from('{"name":"latin-'), Buffer.from([0xe9]), Buffer.from('-tag"}')]);
    const res = await fetch(`${base}/v1/tags`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: bytes,
    });
    const body = (await res.json()) as { code: string; hint: string };
    expect([res.status, body.code]).toEqual([400, 'invalid_json']);
    expect(body.hint).toBe(
      'The request body is not valid UTF-8 (byte 15 starts no valid character); JSON text must be UTF-8.',
    );
    expect((await tagNames()).filter((n) => n.startsWith('latin-'))).toEqual([]);
    // The same text in UTF-8 is taken.
    await live
      .post('/v1/tags')
      .set('Content-Type', 'application/json')
      .send('{"name":"latin-é-tag"}')
      .expect(201);
  });

  it('text/csv on a JSON route is 415 naming application/json, not invalid_json', async () => {
    const res = await live.post('/v1/tags').set('Content-Type', 'text/csv').send('name\ncsv-tag\n');
    expectError(res, 415, 'unsupported_media_type');
    expect(res.body.hint).toContain('application/json');
    expect(res.body.hint).toContain('received Content-Type text/csv');
  });

  it('bulk import records that are not objects are row errors, as described; resource may come from the query', async () => {
    const path = `/v1/entities/${app.seed.entities.primary.id}/migration/imports`;
    const migration = api(app, app.seed.entities.primary.keys.migration);
    const records = (
      doc().components.schemas.CreateImportDto as unknown as {
        properties: Record<string, { description?: string }>;
      }
    ).properties.records;
    expect(records.description).toContain('reported as that row');
    // The upload is taken (the rows are validated one by one when the import runs: see
    // test/migration/imports.e2e-spec.ts for the row errors of a string and a null record).
    const taken = await migration
      .post(path)
      .send({ resource: 'tags', records: [[null, null]] })
      .expect(201);
    expect(taken.body).toMatchObject({ object: 'import', resource: 'tags' });
    // `resource` may come from the query instead of the body, as described.
    const body = doc().paths['/v1/entities/{entity_id}/migration/imports'].post as unknown as {
      requestBody: { content: Record<string, { schema: { $ref: string } }> };
    };
    const schema =
      doc().components.schemas[body.requestBody.content['application/json'].schema.$ref.split('/').pop()!];
    expect(schema.required ?? []).not.toContain('resource');
    await migration
      .post(`${path}?resource=tags`)
      .send({ records: [{ external_id: 'Q-1', name: 'from-query' }] })
      .expect(201);
  });

  it('GET /packages/{id}/rates documents its 409', () => {
    const op = doc().paths['/v1/packages/{id}/rates'].get as unknown as {
      responses: Record<string, unknown>;
    };
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '404', '409']));
  });
});
