import request from 'supertest';
import { api } from '../support/http';
import { validatorFor } from '../support/openapi-validator';
import { startTestApp, TestApp } from '../support/test-app';

describe('responses checked against the OpenAPI description', () => {
  let app: TestApp;
  let live: ReturnType<typeof api>;

  beforeAll(async () => {
    app = await startTestApp();
    live = api(app, app.seed.entities.primary.keys.live);
  });
  afterAll(() => app.close());

  it('fails on an undocumented field, naming the operation, the status and the place in the body', async () => {
    const tag = (await live.post('/v1/tags').send({ name: 'Contract check' }).expect(201)).body;
    const res = await live.get(`/v1/tags/${tag.id}`).expect(200);
    const validator = validatorFor(app.openapi);
    expect(() => validator.assert('GET', `/v1/tags/${tag.id}`, res)).not.toThrow();

    const extra = {
      ...res,
      body: { ...res.body, surprise: 1 },
      text: JSON.stringify({ ...res.body, surprise: 1 }),
    };
    expect(() => validator.assert('GET', `/v1/tags/${tag.id}`, extra)).toThrow(
      /GET \/v1\/tags\/\{id\} \(Tags_retrieve\) answered 200\n {2}- body has an undocumented field "surprise"/,
    );

    const list = await live.get('/v1/tags').expect(200);
    const listBody = { ...list.body, data: [{ ...list.body.data[0], name: 5 }] };
    expect(() =>
      validator.assert('GET', '/v1/tags?limit=1', {
        ...list,
        body: listBody,
        text: JSON.stringify(listBody),
      }),
    ).toThrow(/GET \/v1\/tags \(Tags_list\) answered 200\n {2}- body\.data\[0\]\.name must be string/);
  });

  it('fails on an undocumented status or header, and accepts an entity-prefixed alias', async () => {
    const validator = validatorFor(app.openapi);
    const res = await live.get('/v1/tags').expect(200);
    expect(() => validator.assert('GET', '/v1/tags', { ...res, status: 418 })).toThrow(
      /GET \/v1\/tags \(Tags_list\) answered 418\n {2}- status 418 is not documented/,
    );
    expect(() =>
      validator.assert('GET', '/v1/tags', {
        ...res,
        headers: { ...res.headers, 'idempotent-replayed': 'true' },
      }),
    ).toThrow(/header idempotent-replayed is sent but not documented for status 200/);

    const alias = `/v1/entities/${app.seed.entities.primary.id}/tags`;
    const aliased = await live.get(alias).expect(200);
    expect(() => validator.assert('GET', alias, aliased)).not.toThrow();
  });

  it('fails a wrong error body and accepts the documented envelope', async () => {
    const validator = validatorFor(app.openapi);
    const res = await request(app.server).get('/v1/tags').expect(401);
    expect(() => validator.assert('GET', '/v1/tags', res)).not.toThrow();
    const nested = { error: { code: 'invalid_api_key' } };
    expect(() =>
      validator.assert('GET', '/v1/tags', { ...res, body: nested, text: JSON.stringify(nested) }),
    ).toThrow(/answered 401\n(.|\n)*- body\.error must be string/);
  });

  it('matches every list and retrieve operation of the seeded dataset', async () => {
    // Every GET without path parameters, then the retrieve of each first record listed.
    const paths = Object.entries(app.openapi.paths)
      .filter(([path, item]) => item.get && !path.includes('{'))
      .map(([path]) => path);
    expect(paths.length).toBeGreaterThan(20);
    const validator = validatorFor(app.openapi);
    const agent = request(app.server);
    const key = `Bearer ${app.seed.entities.primary.keys.live}`;
    const problems: string[] = [];
    const check = async (url: string) => {
      const res = await agent.get(url).set('Authorization', key);
      const found = validator.problems('GET', url, res);
      problems.push(...found.problems.map((p) => `${found.operation} ${res.status}: ${p}`));
      return res;
    };
    for (const path of paths) {
      const res = await check(path);
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
      const first = (res.body as { data?: { id?: string }[] }).data?.[0];
      if (first?.id && app.openapi.paths[`${path}/{id}`]?.get) await check(`${path}/${first.id}`);
    }
    expect([...new Set(problems.map((p) => p.replace(/\[\d+\]/g, '[]')))]).toEqual([]);
  });
});
