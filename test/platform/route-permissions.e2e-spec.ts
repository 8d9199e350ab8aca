import { RouteInfo, RouteRegistry } from '#platform/http/route-registry';
import { startTestApp, TestApp } from '../support/test-app';
import { UndeclaredTestModule } from '../support/test-routes';

/** Routes with neither @RequireScopes() nor @Public(): the guard denies them. */
const undeclared = (routes: RouteInfo[]) =>
  routes.filter((r) => !r.public && (!r.scopes || r.scopes.length === 0)).map((r) => `${r.method} ${r.path}`);

/** One line per route: `METHOD path scopes`, sorted, so a permission change is a visible diff. */
const permissionTable = (routes: RouteInfo[]) =>
  routes
    .map((r) => `${r.method} ${r.path} ${r.public ? '(public)' : (r.scopes ?? []).join(' ') || '(none)'}`)
    .sort();

describe('route permissions', () => {
  describe('the product app', () => {
    let app: TestApp;
    let routes: RouteInfo[];

    beforeAll(async () => {
      app = await startTestApp();
      routes = app.get(RouteRegistry).routes();
    });
    afterAll(() => app.close());

    it('declares scopes or @Public() on every route', () => {
      expect(routes.length).toBeGreaterThan(5);
      expect(undeclared(routes)).toEqual([]);
      for (const route of routes.filter((r) => r.scopes)) {
        expect(route.public).toBe(false);
        expect(route.scopes!.length).toBeGreaterThan(0);
      }
    });

    it('serves the API key routes with the api_keys scopes', () => {
      const table = permissionTable(routes);
      expect(table).toEqual(
        expect.arrayContaining([
          'GET /v1/entities/:entity_id/api_keys api_keys:read',
          'GET /v1/entities/:entity_id/api_keys/:id api_keys:read',
          'POST /v1/entities/:entity_id/api_keys api_keys:write',
          'POST /v1/entities/:entity_id/api_keys/:id/rotate api_keys:write',
          'POST /v1/entities/:entity_id/api_keys/:id/revoke api_keys:write',
        ]),
      );
    });

    it('matches the permission snapshot', () => {
      expect(permissionTable(routes)).toMatchSnapshot();
    });
  });

  describe('an app with a route lacking a scope policy', () => {
    let app: TestApp;

    beforeAll(async () => {
      app = await startTestApp({}, { extraModules: [UndeclaredTestModule] });
    });
    afterAll(() => app.close());

    it('reports the route', () => {
      const routes = app.get(RouteRegistry).routes();
      expect(undeclared(routes)).toEqual(['POST /v1/test-undeclared']);
      expect(permissionTable(routes)).toContain('POST /v1/test-undeclared (none)');
    });
  });
});
