import { api } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * A query parameter the operation's description does not list is refused on every route, whether
 * or not its handler reads a query (libs/platform/http/described-query.ts): a misspelt filter is
 * an error, never an unfiltered answer, and a write refused for it changes nothing.
 */
describe('query parameters an operation does not take', () => {
  let app: TestApp;
  let live: ReturnType<typeof api>;

  beforeAll(async () => {
    app = await startTestApp();
    live = api(app, app.seed.entities.primary.keys.live);
  });
  afterAll(() => app.close());

  it('a read that takes no query: 400 parameter_unknown naming the parameter', async () => {
    const res = await live.get('/v1/inventory/settings?locaton_id=x');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'parameter_unknown', param: 'locaton_id' });
    expect(res.body.hint).toBe('Received unknown parameter: locaton_id.');
    expect((await live.get('/v1/inventory/settings')).status).toBe(200);
  });

  it('a list: its own parameters pass, a misspelt filter does not', async () => {
    const listed = await live.get('/v1/tags?limit=1&include_count=true');
    expect(listed.status).toBe(200);
    expect(listed.body.data).toHaveLength(1);
    const misspelt = await live.get('/v1/tags?limt=2');
    expect(misspelt.status).toBe(400);
    expect(misspelt.body).toMatchObject({ code: 'parameter_unknown', param: 'limt' });
  });

  it('expand[] keeps its own rule: invalid_expand where the route expands nothing', async () => {
    const tag = (await live.get('/v1/tags?limit=1')).body.data[0] as { id: string };
    expect((await live.get(`/v1/tags/${tag.id}?expand[]=nothing`)).body).toMatchObject({
      code: 'invalid_expand',
    });
    const product = (await live.get('/v1/products?limit=1')).body.data[0] as { id: string };
    expect((await live.get(`/v1/products/${product.id}?expand[]=category`)).status).toBe(200);
  });

  it('a write refused for an unknown query parameter creates nothing', async () => {
    const name = `unknown-query-${Date.now()}`;
    const res = await live.post('/v1/tags?dry_run=true').send({ name });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'parameter_unknown', param: 'dry_run' });
    const all = (await live.get('/v1/tags?limit=100')).body.data as { name: string }[];
    expect(all.map((t) => t.name)).not.toContain(name);
    expect((await live.post('/v1/tags').send({ name })).status).toBe(201);
  });
});
