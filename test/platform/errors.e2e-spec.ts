import request from 'supertest';
import { newId } from '#platform/persistence/ids';
import { idempotencyRecords } from '../support/database';
import { api, expectError } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';
import { ProbeModule } from './probe.module';

describe('errors and the response envelope', () => {
  let app: TestApp;
  let live: ReturnType<typeof api>;
  let tagId: string;

  beforeAll(async () => {
    app = await startTestApp({}, { extraModules: [ProbeModule] });
    live = api(app, app.seed.entities.primary.keys.live);
    tagId = (await live.post('/v1/tags').send({ name: 'errors' }).expect(201)).body.id;
  });
  afterAll(() => app.close());

  it('answers an unknown route with 404 not_found in the envelope', async () => {
    for (const path of ['/v1/nope', '/v1/tags/x/y/z', '/nothing-here']) {
      const res = await live.get(path);
      expectError(res, 404, 'not_found', { type: 'not_found' });
      expect(res.headers['content-type']).toMatch(/application\/json/);
    }
    expectError(await request(app.server).get('/v1/nope'), 404, 'not_found');
    expectError(await live.post('/v1/nope').send({}), 404, 'not_found');
  });

  it('answers a known path with the wrong method with 405 and Allow', async () => {
    const put = await live.put(`/v1/tags/${tagId}`).send({ name: 'x' });
    expectError(put, 405, 'method_not_allowed', { type: 'validation_error' });
    expect(put.headers.allow.split(', ').sort()).toEqual(['DELETE', 'GET', 'PATCH']);
    const post = await live.post(`/v1/tags/${tagId}`).send({});
    expectError(post, 405, 'method_not_allowed');
    expect(post.headers.allow.split(', ').sort()).toEqual(['DELETE', 'GET', 'PATCH']);
    const del = await live.delete('/v1/tags');
    expectError(del, 405, 'method_not_allowed');
    expect(del.headers.allow.split(', ').sort()).toEqual(['GET', 'POST']);
    const alias = await live.put(`/v1/entities/${app.seed.entities.primary.id}/tags/${tagId}`).send({});
    expectError(alias, 405, 'method_not_allowed');
    expect(alias.headers.allow.split(', ').sort()).toEqual(['DELETE', 'GET', 'PATCH']);
    const health = await request(app.server).post('/health').send({});
    expectError(health, 405, 'method_not_allowed');
    expect(health.headers.allow).toBe('GET');
  });

  it('refuses a body that is not JSON or too large', async () => {
    expectError(
      await live.post('/v1/tags').set('Content-Type', 'application/json').send('{"name": '),
      400,
      'invalid_json',
      {
        type: 'validation_error',
      },
    );
    expectError(
      await live.patch(`/v1/tags/${tagId}`).set('Content-Type', 'application/json').send('not json'),
      400,
      'invalid_json',
    );
    const big = JSON.stringify({ name: 'x'.repeat(1024 * 1024) });
    expectError(
      await live.post('/v1/tags').set('Content-Type', 'application/json').send(big),
      413,
      'payload_too_large',
      {
        type: 'validation_error',
      },
    );
    // Just under 1 MiB passes the body limit and reaches validation.
    const nearly = JSON.stringify({ name: 'x'.repeat(1024 * 1024 - 64) });
    expectError(
      await live.post('/v1/tags').set('Content-Type', 'application/json').send(nearly),
      400,
      'parameter_invalid',
      { param: 'name' },
    );
  });

  it('names the parameter of wrong types, missing and unknown fields, also nested', async () => {
    expectError(await live.post('/v1/tags').send({ name: 42 }), 400, 'parameter_invalid', {
      param: 'name',
      type: 'validation_error',
    });
    expectError(await live.post('/v1/tags').send({ name: 'x', color: 5 }), 400, 'parameter_invalid', {
      param: 'color',
    });
    expectError(await live.patch(`/v1/tags/${tagId}`).send({ name: ['a'] }), 400, 'parameter_invalid', {
      param: 'name',
    });
    expectError(await live.post('/v1/tags').send({ name: 'x', extra: true }), 400, 'parameter_unknown', {
      param: 'extra',
    });
    expectError(await live.patch(`/v1/tags/${tagId}`).send({ id: newId() }), 400, 'parameter_unknown', {
      param: 'id',
    });

    const order = (body: unknown) => live.post('/v1/probe/orders').send(body as object);
    expect((await order({ reference: 'r', items: [{ quantity: 1 }] }).expect(201)).body).toEqual({
      object: 'probe_order',
      reference: 'r',
      items: [{ quantity: 1 }],
    });
    expectError(
      await order({ reference: 'r', items: [{ quantity: 1 }, { quantity: 2, colour: 'red' }] }),
      400,
      'parameter_unknown',
      {
        param: 'items[1].colour',
      },
    );
    expectError(await order({ reference: 'r', items: [{ quantity: 'two' }] }), 400, 'parameter_invalid', {
      param: 'items[0].quantity',
    });
    expectError(await order({ reference: 'r', items: [{ note: 'n' }] }), 400, 'parameter_missing', {
      param: 'items[0].quantity',
    });
    expectError(await order({ items: [] }), 400, 'parameter_missing', { param: 'reference' });
    expectError(await order({ reference: 'r', items: 'nope' }), 400, 'parameter_invalid', { param: 'items' });
  });

  it('refuses null for fields not documented as nullable and arrays for objects, also nested; accepts null where documented', async () => {
    const nullNotAllowed = (param: string) => ({ param, type: 'validation_error' });
    // Optional fields that may only be omitted: PATCH would otherwise write null into a required column.
    expectError(
      await live.patch(`/v1/tags/${tagId}`).send({ name: null }),
      400,
      'parameter_invalid',
      nullNotAllowed('name'),
    );
    const accounts = app.seed.fixtures.ledger_accounts as Record<string, string>;
    for (const field of ['name', 'postable', 'type', 'active']) {
      expectError(
        await live.patch(`/v1/accounting/ledger-accounts/${accounts.expense}`).send({ [field]: null }),
        400,
        'parameter_invalid',
        nullNotAllowed(field),
      );
    }
    expectError(
      await live.patch('/v1/accounting/settings').send({ entry_number_prefix: null }),
      400,
      'parameter_invalid',
      nullNotAllowed('entry_number_prefix'),
    );
    // A required field sent as null is missing, not "too long" or "not a string".
    const missingName = await live.post('/v1/tags').send({ name: null });
    expectError(missingName, 400, 'parameter_missing', { param: 'name' });
    expect(missingName.body.hint).toBe('Missing required parameter: name (null was sent).');
    // Nested: the line objects of a journal entry.
    expectError(
      await live.post('/v1/journal-entries').send({
        entry_date: (app.seed.fixtures.open_period as { start_date: string }).start_date,
        lines: [
          { account_id: accounts.expense, debit_amount: 5 },
          { account_id: accounts.cash, credit_amount: 5, debit_amount: null },
        ],
      }),
      400,
      'parameter_invalid',
      nullNotAllowed('lines[1].debit_amount'),
    );
    // One object expected, an array sent (class-validator's @ValidateNested() accepts both).
    const productId = app.seed.fixtures.product_id as string;
    for (const field of ['weight', 'dimensions']) {
      expectError(
        await live.patch(`/v1/products/${productId}`).send({ [field]: [] }),
        400,
        'parameter_invalid',
        { param: field },
      );
    }
    // Nothing was changed by the refused requests.
    expect((await live.get(`/v1/tags/${tagId}`).expect(200)).body.name).toBe('errors');
    // Documented as nullable: null clears the field.
    await live.patch(`/v1/tags/${tagId}`).send({ color: '#123456' }).expect(200);
    expect((await live.patch(`/v1/tags/${tagId}`).send({ color: null }).expect(200)).body.color).toBeNull();
    const cleared = await live
      .patch(`/v1/accounting/ledger-accounts/${accounts.expense}`)
      .send({ description: null })
      .expect(200);
    expect(cleared.body.description).toBeNull();
  });

  it('refuses money amounts that do not fit numeric(19,4) before they reach the database', async () => {
    const assetId = app.seed.fixtures.fixed_asset_id as string;
    expectError(
      await live.post(`/v1/fixed_assets/${assetId}/impairments`).send({ amount: 1, fair_value: 1e16 }),
      400,
      'parameter_invalid',
      { param: 'fair_value' },
    );
    const productId = app.seed.fixtures.product_id as string;
    for (const list_price of [1e15, -1e15, 1.00001]) {
      expectError(
        await live.patch(`/v1/products/${productId}`).send({ list_price }),
        400,
        'parameter_invalid',
        {
          param: 'list_price',
        },
      );
    }
    // The largest amount that fits is accepted.
    const fits = await live
      .patch(`/v1/products/${productId}`)
      .send({ list_price: 999999999999.9999 })
      .expect(200);
    expect(fits.body.list_price).toBe(999999999999.9999);
  });

  it('answers ids that are not UUIDs as not found', async () => {
    for (const id of ['not-a-uuid', '123', "1' OR '1'='1"]) {
      expectError(await live.get(`/v1/tags/${encodeURIComponent(id)}`), 404, 'not_found');
      expectError(
        await live.patch(`/v1/tags/${encodeURIComponent(id)}`).send({ name: 'x' }),
        404,
        'not_found',
      );
      expectError(await live.delete(`/v1/tags/${encodeURIComponent(id)}`), 404, 'not_found');
    }
    expectError(await live.get(`/v1/tags/${newId()}`), 404, 'not_found');
  });

  it('answers a path parameter that is not valid percent-encoding with 400, also on entity aliases', async () => {
    const bad = '%E0%A4%A';
    const entityAlias = `/v1/entities/${bad}/tags`;
    for (const res of [
      await live.get(`/v1/tags/${bad}`),
      await live.get(entityAlias),
      await live.put(entityAlias).send({}),
      await live.post(entityAlias).send({ name: 'x' }),
    ]) {
      expectError(res, 400, 'parameter_invalid', { type: 'validation_error' });
    }
  });

  it('stamps Request-Id on every response, and error bodies carry the same id', async () => {
    const responses = [
      await live.get('/v1/tags'),
      await live.get(`/v1/tags/${tagId}`),
      await request(app.server).get('/v1/tags'),
      await request(app.server).get('/health'),
      await live.get('/v1/nope'),
      await live.put(`/v1/tags/${tagId}`),
      await live.post('/v1/tags').set('Content-Type', 'application/json').send('{'),
    ];
    const ids = responses.map((r) => r.headers['request-id'] as string);
    for (const id of ids) expect(id).toMatch(/^req_[A-Za-z0-9_-]{16,}$/);
    expect(new Set(ids).size).toBe(ids.length);
    for (const r of responses.filter((x) => x.status >= 400))
      expect(r.body.request_id).toBe(r.headers['request-id']);
    expectError(responses[2], 401, 'invalid_api_key', { type: 'authentication_error' });
  });

  it('hides internal errors behind 500 internal_error, without stack or SQL', async () => {
    const res = await live.get('/v1/probe/boom');
    expectError(res, 500, 'internal_error', { type: 'internal' });
    const text = JSON.stringify(res.body);
    expect(text).not.toMatch(/SELECT|secret|api_keys|stack|\.ts:\d+|at \w+ \(/);
    expect(Object.keys(res.body).sort()).toEqual(['code', 'error', 'hint', 'request_id', 'type']);
    expect(res.headers['content-type']).toMatch(/application\/json/);
  });

  it('does not store a 500 for idempotent replay, so the client may retry', async () => {
    const key = `boom-${newId()}`;
    expectError(
      await live.post('/v1/probe/boom').set('Idempotency-Key', key).send({}),
      500,
      'internal_error',
    );
    expect(await idempotencyRecords(app, key)).toEqual([]);
    const retry = await live.post('/v1/probe/boom').set('Idempotency-Key', key).send({});
    expectError(retry, 500, 'internal_error');
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
  });
});
