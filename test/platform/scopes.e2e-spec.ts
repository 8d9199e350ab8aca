import { api, expectError } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';
import { TwoScopeTestModule, UndeclaredTestModule } from '../support/test-routes';

describe('scopes', () => {
  let app: TestApp;
  let keys: Record<string, string>;
  let keysPath: string;

  /** Issues a live key with the given scopes through the API key routes. */
  const keyWith = async (...scopes: string[]): Promise<string> => {
    const res = await api(app, keys.live)
      .post(keysPath)
      .send({ name: `scopes ${scopes.join(' ')}`, scopes })
      .expect(201);
    expect(res.body.scopes).toEqual(scopes);
    return res.body.secret as string;
  };

  beforeAll(async () => {
    app = await startTestApp({}, { extraModules: [TwoScopeTestModule, UndeclaredTestModule] });
    keys = app.seed.entities.primary.keys;
    keysPath = `/v1/entities/${app.seed.entities.primary.id}/api_keys`;
  });
  afterAll(() => app.close());

  it('lets the wildcard * through every scoped route', async () => {
    await api(app, keys.live).get('/v1/tags').expect(200);
    await api(app, keys.live).post('/v1/tags').send({ name: 'wildcard' }).expect(201);
    await api(app, keys.live).get(keysPath).expect(200);
    expect((await api(app, keys.live).post('/v1/test-two-scope').expect(201)).body).toEqual({ ok: true });
  });

  it('names the missing scope in required', async () => {
    const tagsRead = await keyWith('tags:read');
    await api(app, tagsRead).get('/v1/tags').expect(200);
    const res = await api(app, tagsRead).post('/v1/tags').send({ name: 'x' });
    expectError(res, 403, 'insufficient_scope', { type: 'permission_error', required: 'tags:write' });
    expect(res.body.hint).toContain('tags:write');
    expectError(await api(app, tagsRead).get(keysPath), 403, 'insufficient_scope', {
      required: 'api_keys:read',
    });
    // A write scope does not imply the read scope.
    const tagsWrite = await keyWith('tags:write');
    await api(app, tagsWrite).post('/v1/tags').send({ name: 'write only' }).expect(201);
    expectError(await api(app, tagsWrite).get('/v1/tags'), 403, 'insufficient_scope', {
      required: 'tags:read',
    });
  });

  it('gives the read_only seed key every read scope and no write scope', async () => {
    const readOnly = api(app, keys.read_only);
    await readOnly.get('/v1/tags').expect(200);
    const list = await readOnly.get(keysPath).expect(200);
    expect(list.body.object).toBe('list');
    expectError(await readOnly.post('/v1/tags').send({ name: 'x' }), 403, 'insufficient_scope', {
      required: 'tags:write',
    });
    expectError(
      await readOnly.post(keysPath).send({ name: 'x', scopes: ['tags:read'] }),
      403,
      'insufficient_scope',
      {
        required: 'api_keys:write',
      },
    );
    expectError(await readOnly.post('/v1/test-two-scope'), 403, 'insufficient_scope', {
      required: 'orders:write payments:write',
    });
  });

  it('limits the orders_only seed key to orders scopes', async () => {
    const ordersOnly = api(app, keys.orders_only);
    expectError(await ordersOnly.get('/v1/tags'), 403, 'insufficient_scope', { required: 'tags:read' });
    expectError(await ordersOnly.get(keysPath), 403, 'insufficient_scope', { required: 'api_keys:read' });
    expectError(await ordersOnly.post('/v1/test-two-scope'), 403, 'insufficient_scope', {
      required: 'payments:write',
    });
  });

  it('needs every scope of a two-scope route', async () => {
    const both = await keyWith('orders:write', 'payments:write');
    const ok = await api(app, both).post('/v1/test-two-scope').expect(201);
    expect(ok.body).toEqual({ ok: true });

    const ordersWrite = await keyWith('orders:write');
    const noPayments = await api(app, ordersWrite).post('/v1/test-two-scope');
    expectError(noPayments, 403, 'insufficient_scope', { required: 'payments:write' });
    expect(noPayments.body.hint).toContain('orders:write and payments:write');

    const paymentsWrite = await keyWith('payments:write');
    expectError(await api(app, paymentsWrite).post('/v1/test-two-scope'), 403, 'insufficient_scope', {
      required: 'orders:write',
    });

    const readsOnly = await keyWith('orders:read', 'payments:read');
    expectError(await api(app, readsOnly).post('/v1/test-two-scope'), 403, 'insufficient_scope', {
      required: 'orders:write payments:write',
    });
  });

  it('denies a route that declares neither scopes nor @Public, even to the wildcard key', async () => {
    const res = await api(app, keys.live).post('/v1/test-undeclared');
    expectError(res, 403, 'insufficient_scope', { type: 'permission_error' });
    expect(res.body.hint).toMatch(/denied by default/);
    expectError(await api(app, keys.migration).post('/v1/test-undeclared'), 403, 'insufficient_scope');
    // Authentication still comes first.
    expectError(await api(app).post('/v1/test-undeclared'), 401, 'invalid_api_key');
  });
});
